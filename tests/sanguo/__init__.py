"""Tests of the sanguo (三国, seed 001) rule modules."""
