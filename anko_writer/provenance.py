"""A thread the host cannot fudge (issue 28): the rules post commits to the campaign seed and the tool's version,
and once the host publishes the seed and the campaign, ``anko-writer replay`` plays every arc again from them and
compares every posted chapter byte for byte — so a re-rolled month, a changed die or a changed vote shows.

The commitment is SHA-256 of ``anko-writer|seed|<seed>``: as strong as the seed (``new`` draws 18 digits, about 60
bits; a shorter seed is warned about by every command).

>>> line = commitment_line(123456789012345678, "0.9")
>>> read_commitment("# 开帖\\n\\n" + line + "\\n") == ("0.9", seed_commitment(123456789012345678))
True
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

LINE = "〔种子承诺｜anko-writer {version}｜{commitment}〕"
"""The line the rules post ends with: the tool's version and the seed's commitment."""


@functools.cache
def _line() -> re.Pattern[str]:
    """:data:`LINE` as a pattern, compiled on first use (only a reader of a posted rules post needs it)."""
    return re.compile(r"〔种子承诺｜anko-writer (?P<version>[^｜〕\s]+)｜(?P<commitment>[0-9a-f]{64})〕")


def seed_commitment(seed: int) -> str:
    """The commitment to ``seed`` the rules post carries."""
    return hashlib.sha256(f"anko-writer|seed|{seed}".encode()).hexdigest()


def commitment_line(seed: int, version: str) -> str:
    """The rules post's last line: 〔种子承诺｜anko-writer 版本｜承诺〕."""
    return LINE.format(version=version, commitment=seed_commitment(seed))


def read_commitment(text: str) -> tuple[str, str] | None:
    """The (version, commitment) a posted rules post carries, if any."""
    m = _line().search(text)
    return (m["version"], m["commitment"]) if m else None


@dataclass
class Replay:
    """What a replay found: files compared, the ones that differ or were not made again, and the commitment."""

    compared: list[str] = field(default_factory=list)
    differ: list[str] = field(default_factory=list)
    unmade: list[str] = field(default_factory=list)
    commitment: str | None = None
    """None: the rules post holds no commitment; else 'ok', or why it does not match."""

    @property
    def ok(self) -> bool:
        """Every posted file made again identically, and the commitment (if any) is the seed's."""
        return bool(self.compared) and not self.differ and not self.unmade and self.commitment in (None, "ok")


def compare(posted: Mapping[str, str], made: Mapping[str, str], report: Replay) -> None:
    """Add to ``report`` each posted file (by path) against what the replay made."""
    for rel in sorted(posted):
        if rel not in made:
            report.unmade.append(rel)
        elif made[rel] != posted[rel]:
            report.differ.append(rel)
        else:
            report.compared.append(rel)


def check_commitment(rules: str | None, seed: int, version: str) -> str | None:
    """'ok' when the posted rules post commits to ``seed``; why not otherwise; None without a commitment."""
    found = read_commitment(rules or "")
    if found is None:
        return None
    posted_version, commitment = found
    if commitment != seed_commitment(seed):
        return "开帖里的种子承诺与公开的种子不符"
    if posted_version != version:
        return f"开帖是 anko-writer {posted_version} 写的，这里是 {version}：请用同一版本重放"
    return "ok"


__all__ = ["LINE", "Replay", "check_commitment", "commitment_line", "compare", "read_commitment", "seed_commitment"]
