"""The 接战 Engage ruleset (seed 002): its pure rule modules so far; not yet registered."""
