"""000 ch.11 and Appendix: money — the ledger, finance rules (gate, income, prizes, bills), the month's
cash flow and bankruptcy."""
