"""Money (000 ch.11): the ledger, finance rules (gate, income, prizes, bills), the month's cash flow and
bankruptcy."""
