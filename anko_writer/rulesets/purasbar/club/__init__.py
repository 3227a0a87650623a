"""The club and its people (000 ch.8, 9, 12, 13, 15, 16; generation §2.2, §3.2–3.3; achievements Appendix E):
owner, coach, staff and affinity; owner actions, coach decisions and conflict; morale, training, youth,
ageing, achievements, fans and squad generation."""
