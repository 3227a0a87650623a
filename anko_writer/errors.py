"""Precise exceptions: every user-facing failure names the file, line and key."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class AnkoError(Exception):
    """Base class of every error the CLI reports as one clean line (no traceback)."""


@dataclass
class Location:
    """Where in a source file something is: ``file:line:col`` (1-based, like compilers print)."""

    file: Path | str
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        parts = [str(self.file)]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)


class InputError(AnkoError, ValueError):
    """Bad input at a known place: ``campaign.yaml:12:5: players[3].position: message``."""

    def __init__(self, location: Location, key: str, message: str) -> None:
        self.location = location
        self.key = key
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        key = f" {self.key}:" if self.key else ""
        return f"{self.location}:{key} {self.message}"


class CampaignError(InputError):
    """The campaign YAML (or a state snapshot) breaks the ruleset's schema."""


class TableError(InputError):
    """A dice table is malformed: a gap, an overlap, an unknown effect kind."""


class TemplateError(AnkoError):
    """A chapter template failed to render (undefined name, sandbox violation)."""


class OutputError(AnkoError):
    """Writing the output would lose work (e.g. a chapter edited by hand) or failed."""


class VerifyError(AnkoError):
    """A hidden-dice commitment does not match its reveal, or a reveal has no commitment."""


class DiceError(AnkoError, ValueError):
    """A dice expression cannot be parsed or a fixed value is out of the die's range."""
