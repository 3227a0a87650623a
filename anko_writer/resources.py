"""Where built-in and overriding files live: a campaign folder's files win over the shipped ones.

Like a MkDocs theme's ``custom_dir``: ``<campaign>/templates/<ruleset>/x`` overrides the built-in
``templates/<ruleset>/x`` of the same name; files it does not override still come from the package.
"""

from __future__ import annotations

from pathlib import Path

from .errors import AnkoError

KINDS = ("templates", "tables")
"""The resource kinds a ruleset ships (top-level folders of the repository)."""


def builtin_dir(kind: str) -> Path:
    """The shipped folder of ``kind``: inside the installed package, else the source checkout's."""
    if kind not in KINDS:
        raise ValueError(f"unknown resource kind {kind!r} (expected one of {', '.join(KINDS)})")
    here = Path(__file__).resolve().parent
    inside = here / "_data" / kind
    return inside if inside.is_dir() else here.parent / kind


class Resources:
    """The search path of one ruleset's templates and tables, campaign folder first."""

    def __init__(self, ruleset: str, campaign_dir: Path | None) -> None:
        self.ruleset = ruleset
        self.campaign_dir = campaign_dir

    def __repr__(self) -> str:
        return f"Resources({self.ruleset!r}, {self.campaign_dir!r})"

    def candidates(self, kind: str) -> list[Path]:
        """Every folder searched for ``kind``, existing or not, in priority order."""
        dirs = [builtin_dir(kind) / self.ruleset]
        if self.campaign_dir is not None:
            dirs.insert(0, Path(self.campaign_dir) / kind / self.ruleset)
        return dirs

    def search_path(self, kind: str) -> list[Path]:
        """The existing folders searched for ``kind``, campaign folder first."""
        return [d for d in self.candidates(kind) if d.is_dir()]

    def find(self, kind: str, name: str) -> Path:
        """The first file called ``name`` on the search path of ``kind``."""
        for d in self.search_path(kind):
            path = d / name
            if path.is_file():
                return path
        searched = ", ".join(str(d) for d in self.candidates(kind))
        noun = kind[:-1] if kind.endswith("s") else kind
        raise AnkoError(f"no {noun} named {name} in {searched}")

    def table_path(self, name: str) -> Path:
        """Shorthand for ``find("tables", name)``."""
        return self.find("tables", name)


__all__ = ["KINDS", "builtin_dir", "Resources"]
