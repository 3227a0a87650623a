"""BALL (003): a deterministic board game played by readers' votes (the ruleset registers itself here)."""
