"""The game: positions, legal actions, notation and the AI (003)."""
