"""The season wing: the month's phases, a whole season with the cup, seasons that follow."""
