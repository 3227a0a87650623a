"""The competition wing: schedule, standings, the 群英杯 draw."""
