"""The match wing: engine, extra time and penalties, tactics, injuries."""
