"""Tests of the core: dice, hidden dice, tables, schema, YAML, output, rendering and the command line."""
