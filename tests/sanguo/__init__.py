"""Tests of the 三国 ruleset."""
