"""三国 (seed 001): the pure rule modules of the sanguo ruleset."""
