"""The BALL campaign file: its schema (votes replayed through the game) and ``anko-writer new``."""
