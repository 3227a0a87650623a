"""The setup wing: the shipped tables and their loader."""
