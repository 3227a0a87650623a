"""The contract suite: checks every registered ruleset and the coinduel test plug-in must pass."""
