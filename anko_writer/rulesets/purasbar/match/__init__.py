"""000 ch.3, 5 and 7: the match — sides and line-ups, the six slices (engine), substitutions, penalties,
abilities, formations, tactics, injuries."""
