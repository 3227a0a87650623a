"""The 三国 ruleset (seed 001): its pure rule modules so far (board, vision, units, combat); not yet registered."""
