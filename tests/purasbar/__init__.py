"""Tests of the 群英杯 ruleset, one folder per wing of ``anko_writer/rulesets/purasbar/``."""
