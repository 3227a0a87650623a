"""The league around the matches: rosters as the league reads them, the schedule, standings and the season."""
