"""anko-writer: turns forum dice-game rulebooks into serialized Chinese anko chapters."""

__version__ = "0.1.0"
