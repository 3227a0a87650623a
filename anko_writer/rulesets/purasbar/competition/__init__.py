"""000 ch.4: the competitions — the calendar (THE month constants), the league schedule, standings and the cup."""
