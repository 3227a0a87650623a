"""Campaign and state files: the campaign schema, ``anko-writer new``, ``state-end.yaml``, and the table
loader (cities, names, effects)."""
