"""Tests: ``core/`` for the game-free core, ``purasbar/<wing>/`` for the 群英杯 ruleset (like its code)."""
