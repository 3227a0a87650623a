"""000 §4.1–4.4: the season — a league month, the cup month, one fixture of the season (matchday), the
club-life phases, the settlement, the ``World`` of a season, and what carries over into the next."""
