"""The Blood Bowl campaign file, ``anko-writer new`` and the season's ``state-end.yaml``."""
