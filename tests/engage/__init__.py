"""Tests of the 接战 Engage (seed 002) rule modules: DATC-style numbered cases in YAML."""
