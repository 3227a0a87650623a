"""The events wing: business, environment and match events."""
