"""Typed inputs for the engage cases: a case's plain mappings made into the modules' records, by argument name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BUILDERS: dict[str, Callable[[Any], Any]] = {}
"""Argument name → builder of its record from the case's plain data."""
