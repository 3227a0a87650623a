"""The 三国 ruleset (seed 001): pure rule modules."""
