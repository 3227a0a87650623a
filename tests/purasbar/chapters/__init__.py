"""Whole runs: the chapters readers see, secrets, statistics, end to end through the CLI."""
