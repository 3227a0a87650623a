"""Where built-in and overriding files live: a campaign folder's files win over the shipped ones.

Like a MkDocs theme's ``custom_dir``: ``<campaign>/templates/<ruleset>/x`` overrides the shipped
``templates/<ruleset>/x`` of the same name; files it does not override still come from the ruleset.
A ruleset ships its files under its own roots (:attr:`RulesetInfo.templates` and ``.tables``, inside
its package, so a plug-in distributed on its own carries them); without roots, the core's built-in
folders (installed ``_data/`` or the checkout's top level) hold them, as they do the 群英杯's.

A campaign folder may come from someone else, so its override folders must hold their own files: a
symlink in ``templates/<ruleset>/`` or ``tables/<ruleset>/`` whose target lies outside that folder,
or an override folder that is itself a link out of the campaign folder, is refused with an
:class:`~anko_writer.errors.InputError` naming the link. The built-in folders are trusted.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import AnkoError, InputError, Location

if TYPE_CHECKING:
    from .info import RulesetInfo

KINDS = ("templates", "tables")
"""The resource kinds a ruleset ships (top-level folders of the repository)."""
CORE_KINDS = ("profiles", "layouts")
"""Shipped folders the core owns for every ruleset (forum profiles; forum layouts the tally reads replies by)."""
_NOUNS = {"templates": "模板", "tables": "表", "profiles": "论坛配置", "layouts": "论坛版式"}
"""Each kind's name in a message a host reads."""


def builtin_dir(kind: str) -> Path:
    """The shipped folder of ``kind``: inside the installed package, else the source checkout's."""
    if kind not in KINDS + CORE_KINDS:
        raise ValueError(f"未知的资源类型 {kind!r}（应为以下之一：{'、'.join(KINDS + CORE_KINDS)}）")
    here = Path(__file__).resolve().parent
    inside = here / "_data" / kind
    return inside if inside.is_dir() else here.parent / kind


def shipped_or_file(kind: str, spec: str, what: str, error: type[InputError], names: list[str]) -> Path:
    """The shipped ``kind`` file named ``spec`` (``profiles/nga.yaml`` for ``nga``), or ``spec`` itself when it is a
    path to a ``*.yaml`` file; ``error`` names the shipped ``names`` when there is no such ``what``."""
    path = Path(spec)
    if path.suffix in (".yaml", ".yml"):
        return path
    path = builtin_dir(kind) / f"{spec}.yaml"
    if not path.is_file():
        raise error(Location(path), "", f"没有名为 {spec!r} 的{what}；自带的有：{'、'.join(names)}，"
                                        f"也可以给出一个{what}文件（*.yaml）")
    return path


class Resources:
    """The search path of one ruleset's templates and tables, campaign folder first."""

    def __init__(self, ruleset: str, campaign_dir: Path | None, info: RulesetInfo | None = None) -> None:
        self.ruleset = ruleset
        self.campaign_dir = campaign_dir
        self.info = info
        """The ruleset's description: where it ships its files, its money format, filters and words
        (None: the built-in folders, and the registered ruleset's description when rendering)."""
        self._search: dict[str, list[Path]] = {}
        self._found: dict[tuple[str, str], Path] = {}

    def __repr__(self) -> str:
        return f"Resources({self.ruleset!r}, {self.campaign_dir!r})"

    def candidates(self, kind: str) -> list[Path]:
        """Every folder searched for ``kind``, existing or not, in priority order."""
        override = self.override_dir(kind)
        return ([override] if override is not None else []) + [self.shipped_dir(kind)]

    def shipped_dir(self, kind: str) -> Path:
        """The folder of ``kind`` the ruleset ships: under its own root, else the core's built-in one."""
        builtin = builtin_dir(kind)
        root = self.info.root(kind) if self.info is not None else None
        return (root if root is not None else builtin) / self.ruleset

    def override_dir(self, kind: str) -> Path | None:
        """The campaign's override folder of ``kind`` (``<campaign>/<kind>/<ruleset>``), existing or not."""
        return None if self.campaign_dir is None else Path(self.campaign_dir) / kind / self.ruleset

    def search_path(self, kind: str) -> list[Path]:
        """The existing folders searched for ``kind``, campaign folder first.

        Looked up once per instance and kind (files are not expected to come or go during a run), when the
        campaign's override folder is checked: no symlink in it may lead outside it.
        """
        dirs = self._search.get(kind)
        if dirs is None:
            dirs = [d for d in self.candidates(kind) if d.is_dir()]
            if self.campaign_dir is not None and dirs and dirs[0] == self.override_dir(kind):
                check_contained(Path(self.campaign_dir), dirs[0])
            self._search[kind] = dirs
        return list(dirs)

    def find(self, kind: str, name: str) -> Path:
        """The first file called ``name`` on the search path of ``kind`` (found once per instance)."""
        found = self._found.get((kind, name))
        if found is not None:
            return found
        for d in self.search_path(kind):
            path = d / name
            if path.is_file():
                self._found[kind, name] = path
                return path
        searched = "、".join(str(d) for d in self.candidates(kind))
        noun = _NOUNS.get(kind, kind)
        raise AnkoError(f"在 {searched} 里找不到{noun} {name}")

    def table_path(self, name: str) -> Path:
        """Shorthand for ``find("tables", name)``."""
        return self.find("tables", name)


def _real(path: Path) -> Path:
    """``path`` with every symlink resolved, or an InputError for a symlink loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError) as err:  # RuntimeError: a symlink loop before Python 3.13
        raise InputError(Location(path), "", f"无法跟随符号链接：{err}") from None


def check_contained(campaign_dir: Path, folder: Path) -> None:
    """Refuse an override ``folder`` that is a link out of ``campaign_dir`` or holds a link out of itself.

    The error names the link: ``FOLDER/x.md.j2: 符号链接指向 /etc/passwd，在 FOLDER 之外；…``.
    """
    real = _real(folder)
    if not real.is_relative_to(_real(campaign_dir)):
        link = next((p for p in (folder.parent, folder) if p.is_symlink()), folder)
        raise InputError(Location(link), "", f"符号链接指向 {_real(link)}，在战役文件夹 {campaign_dir} 之外；"
                         "覆盖用的文件夹必须在它的战役文件夹里")
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            if path.is_symlink() and not _real(path).is_relative_to(real):
                raise InputError(Location(path), "", f"符号链接指向 {_real(path)}，在 {folder} 之外；"
                                 "战役的覆盖文件必须在它的覆盖文件夹里")


__all__ = ["CORE_KINDS", "KINDS", "builtin_dir", "check_contained", "Resources"]
