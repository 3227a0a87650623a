"""Loading a campaign file: read the YAML, find its ruleset, validate it against the ruleset's schema."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import ruleset as ruleset_registry
from . import schema, yamlio
from .errors import CampaignError, Location
from .resources import Resources
from .ruleset import SEALED, Ruleset
from .textfile import read_text

STRONG_SEED = 10**17
"""The smallest seed that keeps hidden dice hidden (18 digits: too many to try against the posts)."""


def new_seed() -> int:
    """A random seed of 18 digits, for a new campaign."""
    return STRONG_SEED + secrets.randbelow(9 * STRONG_SEED)


@dataclass
class Campaign:
    """A validated campaign: the file it came from and its plain data."""

    path: Path
    """The campaign file."""
    data: dict[str, Any]
    """The validated document as plain Python (dicts, lists, scalars)."""
    ruleset: str
    """Name of the ruleset that plays it."""
    seed: int
    """The campaign seed every dice stream derives from."""
    output: str | None = None
    """The ``output:`` key (relative to the campaign file's folder), if any."""
    output_at: Location | None = None
    """Where the ``output:`` value sits in the campaign file (for errors about it)."""
    output_key: str = "output"
    """The key that named the output folder: ``output`` or ``options.output``."""
    seed_at: Location | None = None
    """Where the ``seed:`` value sits in the campaign file (for the weak-seed warning)."""

    @property
    def folder(self) -> Path:
        """The folder holding the campaign file (root of its template and table overrides)."""
        return self.path.parent

    def seed_warning(self) -> str | None:
        """Why the seed is too short to keep hidden dice hidden, or None (DESIGN §10).

        Every die derives from the seed through a published algorithm, so a reader who tries every
        short seed against the posted dice finds it and can then compute every sealed die and salt.

        >>> Campaign(Path("c.yaml"), {}, "x", 1267, seed_at=Location("c.yaml", 7, 7)).seed_warning()[:40]
        'c.yaml:7:7: seed: 种子只有 4 位数字；读者能从公开的骰子找出'
        >>> Campaign(Path("c.yaml"), {}, "x", 10**17).seed_warning() is None
        True
        """
        if abs(self.seed) >= STRONG_SEED:
            return None
        where = self.seed_at or Location(self.path)
        return (f"{where}: seed: 种子只有 {len(str(abs(self.seed)))} 位数字；读者能从公开的骰子找出这么短的种子，"
                f"打开每一颗暗骰：请用 {len(str(STRONG_SEED))} 位或更多的随机数字（'anko-writer new' 会抽出这样的种子）")

    def resources(self) -> Resources:
        """The campaign's resource search path (its folder first, then the built-in files)."""
        try:
            return ruleset_registry.get(self.ruleset).resources(self.folder)
        except ruleset_registry.UnknownRuleset:
            return Resources(self.ruleset, self.folder)

    def output_dir(self) -> Path:
        """The folder the campaign itself names for its chapters: ``output:``, else ``out/`` beside it.

        Either must lie inside the campaign file's folder (a relative path whose ``..`` and symlinks,
        once resolved, stay inside it); otherwise a CampaignError located at the ``output`` key says so.
        The host's ``--out`` is not checked: it is the host's own choice.
        """
        target = self.folder / (self.output or "out")
        if self.output is not None and Path(self.output).is_absolute():
            inside = False
        else:
            try:
                inside = target.resolve().is_relative_to(self.folder.resolve())
            except (OSError, RuntimeError):  # a symlink loop: cannot tell where it leads
                inside = False
        if not inside:
            if self.output is None:
                raise CampaignError(Location(self.path), "", f"默认的输出文件夹 {target} 是指向战役文件夹之外的链接；"
                                    "要写到那里，请用 --out 指定")
            raise CampaignError(self.output_at or Location(self.path, 1), self.output_key,
                                f"{self.output!r} 指向战役文件夹之外；要写到那里，请用 --out 指定")
        return target


def _where(path: Path, doc: Any, key: str) -> Location:
    """The location of ``key``'s value in a loaded mapping (line 1 if unknown)."""
    pos = yamlio.position(doc, key)
    return Location(path, *pos) if pos else Location(path, 1)


def _required_str(path: Path, doc: Mapping[str, Any], key: str) -> str:
    """The string value of a required top-level key, or a CampaignError naming it."""
    if key not in doc:
        raise CampaignError(Location(path, 1), key, "缺少这个必填的键")
    value = doc[key]
    if not isinstance(value, str) or not value:
        raise CampaignError(_where(path, doc, key), key, f"应为非空字符串，实际是 {schema.show(value)}")
    return value


def _seed(path: Path, doc: Mapping[str, Any], data: Mapping[str, Any]) -> int:
    """The campaign seed (an integer), or a CampaignError naming the ``seed`` key."""
    value = data.get("seed", doc.get("seed"))
    if isinstance(value, bool) or not isinstance(value, int):
        where = _where(path, doc, "seed") if "seed" in doc else Location(path, 1)
        raise CampaignError(where, "seed", f"应为整数，实际是{_kind_of(value)}")  # never echo a (mistyped) seed

    return value


def _kind_of(value: Any) -> str:
    """What kind of value ``value`` is, in the words of an error that must not repeat it.

    >>> _kind_of(None), _kind_of("42"), _kind_of(4.2), _kind_of([4])
    ('空值', '字符串', '小数', '列表')
    """
    if value is None:
        return "空值"
    kinds: tuple[tuple[type | tuple[type, ...], str], ...] = (
        (bool, "布尔值"), (str, "字符串"), (float, "小数"), (Mapping, "映射"), (list, "列表"),
        ((datetime.date, datetime.datetime), "日期"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "其他类型的值")


def _output(path: Path, doc: Any, data: Mapping[str, Any]) -> tuple[str | None, Location | None, str]:
    """The output folder named by the campaign (top-level ``output:`` or ``options.output``), where the
    value sits in the file and which of the two keys named it."""
    value = data.get("output")
    if value is not None:
        return str(value), _where(path, doc, "output"), "output"
    options = data.get("options")
    if isinstance(options, Mapping) and options.get("output") is not None:
        raw = doc.get("options") if isinstance(doc, Mapping) else None
        return str(options["output"]), _where(path, raw, "output"), "options.output"
    return None, None, "output"


def _sealed_problem(kinds: Mapping[str, str]) -> Any:
    """The check of ``options.sealed`` against the kinds a ruleset declares: each one known, none twice."""
    allowed = "；".join(f"{k}（{v}）" for k, v in kinds.items()) or "无"

    def problem(values: list[str]) -> schema.Problem:
        for i, v in enumerate(values):
            if v not in kinds:
                return i, (f"{v!r} 不是这个规则集可以封存的掷骰种类；可以封存的种类：{allowed}"
                           f"{schema.did_you_mean(v, list(kinds))}")
            if v in values[:i]:
                return i, f"{v!r} 列了两次"
        return None
    return problem


def _sealed(path: Path, doc: Mapping[str, Any], rs: Ruleset[Any]) -> list[str] | None:
    """The kinds ``options.sealed`` names, checked against the ruleset's
    :attr:`~anko_writer.ruleset.Ruleset.sealable` (None: the key is absent)."""
    options = doc.get("options")
    if not isinstance(options, Mapping) or SEALED not in options:
        return None
    at = schema.At(path, "", yamlio.position(doc), CampaignError).value(doc, "options").value(options, SEALED)
    kinds = dict(rs.sealable)
    if not kinds:
        at.fail(f"规则集 {rs.name} 没有声明主持人可以封存的掷骰种类（请删去这个键）")
    found: list[str] = schema.Check(schema.List(schema.Str()), _sealed_problem(kinds)).check(options[SEALED], at)
    return found


@contextmanager
def _without(mapping: Any, key: str) -> Iterator[None]:
    """``mapping`` without ``key`` while the block runs, then as it was (the key back in its place)."""
    if not isinstance(mapping, MutableMapping) or key not in mapping:
        yield
        return
    place = list(mapping).index(key)
    value = mapping.pop(key)
    try:
        yield
    finally:
        if hasattr(mapping, "insert"):  # a ruamel mapping: the key goes back where it was
            mapping.insert(place, key, value)
        else:
            mapping[key] = value


def validate_document(path: Path, doc: Any) -> tuple[Ruleset[Any], dict[str, Any]]:
    """Find the document's ruleset and validate the document against its schema; ``options.sealed`` (the roll
    kinds the host seals) is checked by the core against the kinds the ruleset declares, and kept in the
    validated ``options`` only when the host set it."""
    if not isinstance(doc, Mapping):
        raise CampaignError(Location(path, 1), "", "战役文件应是由键和值组成的映射")
    name = _required_str(path, doc, "ruleset")
    try:
        rs = ruleset_registry.get(name)
    except ruleset_registry.UnknownRuleset as exc:
        raise CampaignError(_where(path, doc, "ruleset"), "ruleset", str(exc)) from None
    sealed = _sealed(path, doc, rs)
    options = doc.get("options")
    alone = sealed is not None and isinstance(options, Mapping) and len(options) == 1
    with _without(options, SEALED), _without(doc if alone else None, "options"):
        data = schema.validate(doc, rs.campaign_schema(rs.resources(path.parent)), path)
    if not isinstance(data, dict):
        raise CampaignError(Location(path, 1), "", "战役文件应是由键和值组成的映射")
    if sealed is not None:
        options = data.get("options")
        data["options"] = {**(options if isinstance(options, dict) else {}), SEALED: sealed}
    return rs, data


def load_campaign(path: Path | str) -> Campaign:
    """Read, validate and return the campaign at ``path`` (errors name file, line and key).

    libyaml reads it when it can, with the very data, types and positions the locating parser gives
    (:func:`yamlio.load_located`), so a refused campaign's message is the one the locating parser's reading gives
    (``tests/core/test_located_errors.py`` compares the two over every shipped campaign's mutations)."""
    path = Path(path)
    return _campaign(path, yamlio.load_located(read_text(path, CampaignError), path, CampaignError))


def _campaign(path: Path, doc: Any) -> Campaign:
    """The campaign ``doc`` (read from ``path``) holds, validated."""
    rs, data = validate_document(path, doc)
    output, output_at, output_key = _output(path, doc, data)
    return Campaign(path, data, rs.name, _seed(path, doc, data), output, output_at, output_key,
                    _where(path, doc, "seed") if "seed" in doc else None)


__all__ = ["Campaign", "STRONG_SEED", "load_campaign", "new_seed", "validate_document"]
