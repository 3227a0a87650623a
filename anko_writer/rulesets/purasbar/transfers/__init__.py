"""000 Appendix D: transfers — valuation and the market, the windows' negotiations and AI, contracts,
and the window phase of the month."""
