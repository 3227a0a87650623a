"""Tests of the 三国 (sanguo, seed 001) rule modules: DATC-style numbered cases in YAML."""
