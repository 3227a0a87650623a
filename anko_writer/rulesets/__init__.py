"""Ruleset plug-ins shipped with anko-writer."""
