"""000 ch.8–10, 12: the club and its people — owner, coach, staff and affinity; owner actions, coach
decisions and conflict; morale, training, youth, ageing, achievements, fans and squad generation."""
