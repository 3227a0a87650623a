"""The money wing: finance and bankruptcy."""
