"""Blood Bowl (004): a league of matches as an anko (the ruleset registers itself here)."""
