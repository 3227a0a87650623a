"""Kits a ruleset may use: a square grid (:mod:`.grid`), a league (:mod:`.league`) and ranked story beats
(:mod:`.story`). A kit knows nothing of any ruleset; the core never imports a ruleset, and a kit never does."""
