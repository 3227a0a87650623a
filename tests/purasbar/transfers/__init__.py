"""The transfers wing: the market, windows and contracts."""
