"""The chapter JSON's fast paths (issue 29 round 3) write what the plain walks wrote.

- :func:`anko_writer.compact.pack_rolls` against the record-by-record packing it replaced;
- a declared table's plan (:meth:`_Compactor._declared`) against the record-by-record rows it replaced
  (:meth:`_Compactor._declared_rows`, still the path for keys to drop);
- :func:`anko_writer.hidden.mask_sealed` shares what nothing sealed reaches, and copies the rest;
- :func:`anko_writer.output.dump_json`'s encoder against :data:`anko_writer.output._ENCODE`;
- :func:`anko_writer.runtime.collector_paused` gives the collector back as it found it.
"""

from __future__ import annotations

import copy
import gc
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import compact as compact_module
from anko_writer import output
from anko_writer.compact import ROLL_FIELDS, compact, expand, pack_rolls, unpack_rolls
from anko_writer.hidden import mask_sealed
from anko_writer.runtime import collector_paused
from tests import json_choices
from tests.choices import Choices, built


def _reference_pack(rolls: list[dict[str, Any]]) -> dict[str, Any]:
    """Rule 2 as the record-by-record loop of 07047ad wrote it (the oracle)."""
    kinds: dict[tuple[Any, ...], tuple[list[Any], int]] = {}
    runs: list[list[Any]] = []
    last: tuple[str, int] | None = None
    base = ""
    run: list[Any] = []
    for r in rolls:
        rid = str(r["id"])
        head, _, num = rid.rpartition("#")
        n = int(num) if num.isdigit() else -1
        if last is None or n < 0 or last[0] != head or last[1] != n - 1:
            tail = rid[len(base):]
            run = [tail if base and rid.startswith(base) and tail[:1] in ("#", "/") else rid]
            runs.append(run)
            base = base if run[0] != rid else rid.partition("#")[0]
        last = (head, n) if n >= 0 else None
        extra = {k: v for k, v in r.items() if k not in ROLL_FIELDS} if len(r) > len(ROLL_FIELDS) else None
        name = (r["purpose"], r["expr"], json.dumps(extra, ensure_ascii=False, sort_keys=True) if extra else "")
        known = kinds.get(name)
        if known is None:
            known = kinds[name] = ([r["purpose"], r["expr"], *([extra] if extra else [])], len(kinds))
        dice = r["dice"]
        row = [known[1], dice[0] if type(dice) is list and len(dice) == 1 else dice]
        if r["hidden"]:
            row += [r["total"], True]
        elif dice is None or r["total"] != (dice[0] if len(dice) == 1 else sum(dice)):
            row.append(r["total"])
        run.append(row)
    words: dict[str, int] = {}
    listed = [_reference_worded(k, words) for k, _ in kinds.values()]
    return {**({"words": list(words)} if words else {}),
            "kinds": [k[0] if k[1:] == ["1D100"] else k for k in listed], "runs": runs}


def _reference_worded(kind: list[Any], words: dict[str, int]) -> list[Any]:
    """A kind whose purpose has two parts with them as indices in ``words``, as 07047ad wrote it."""
    head, space, tail = str(kind[0]).rpartition(" ")
    if not space or not head or not tail:
        return kind
    return [[words.setdefault(head, len(words)), words.setdefault(tail, len(words))], *kind[1:]]


HEADS = ("s1/m03/甲-乙", "s1/m03/甲-乙/gate", "s1/m03/丙-丁", "b1")
PURPOSES = ("攻势骰", "卡尔·穆勒 伤病抽检", "乙 伤病抽检", "卡尔·穆勒 缺阵周数", "名")
EXTRAS = (None, *({"kind": k} for k in ("given_name", "surname", 1, True, 0.0, -0.0, None, ["x", 1])))
STEPS = ("next", "next", "next", "jump", "head", "odd")


def _dice(ch: Choices) -> list[int] | None:
    """No dice, or one to three faces of 1 to 20."""
    return None if not ch.flip() else [ch.integer(1, 20) for _ in range(ch.integer(1, 3))]


def roll_list(ch: Choices) -> list[dict[str, Any]]:
    """Roll records as a chapter holds them: runs of ids counting on, breaks, odd suffixes, kinds with extras."""
    out = []
    head, n = ch.pick(HEADS), 1
    for _ in range(ch.integer(0, 30)):
        step = ch.pick(STEPS)
        if step == "jump":
            n += ch.integer(2, 4)
        elif step == "head":
            head, n = ch.pick(HEADS), ch.integer(1, 3)
        else:
            n += 1
        rid = f"{head}#{n}" if step != "odd" else ch.pick([f"{head}#x", f"{head}#0{n}", head])
        dice = _dice(ch)
        total = (sum(dice) if ch.flip() else ch.integer(0, 40)) if dice else (ch.integer(0, 40) if ch.flip() else None)
        rec = {"id": rid, "purpose": ch.pick(PURPOSES), "expr": ch.pick(("1D100", "1D6", "2D6")),
               "dice": dice, "total": total, "hidden": ch.flip()}
        extra = ch.pick(EXTRAS)
        out.append(rec | copy.deepcopy(extra or {}))
    return out


def roll_lists() -> st.SearchStrategy[list[dict[str, Any]]]:
    """:func:`roll_list` from one draw of bytes (:mod:`tests.choices`)."""
    return built(roll_list)


@settings(max_examples=80, deadline=None)
@given(roll_lists())
def test_pack_rolls_writes_what_the_record_by_record_loop_wrote(rolls: list[dict[str, Any]]) -> None:
    """Every run, kind, word and row as before, for runs, breaks, odd ids, sealed faces and further keys."""
    assert pack_rolls(rolls) == _reference_pack(rolls)


@settings(max_examples=40, deadline=None)
@given(roll_lists())
def test_pack_rolls_still_unpacks(rolls: list[dict[str, Any]]) -> None:
    """Rule 2 is lossless for rolls whose dice tell a total (a roll with no dice keeps its total)."""
    plain = [r for r in rolls if r["dice"] is not None and not r["hidden"] and "#" in str(r["id"])
             and str(r["id"]).rpartition("#")[2].isdigit() and str(r["id"]).rpartition("#")[2][:1] != "0"]
    assert unpack_rolls(pack_rolls(plain)) == [{**r, "hidden": False} for r in plain]


CELL_TEXTS = ("甲", "乙", "FW", "", "#7", "/gate")


def _cell(ch: Choices, rolls: list[dict[str, Any]]) -> Any:
    """A table cell: scalars, text, a roll reference, a modifiers record, a list."""
    def ref() -> Any:
        r = ch.pick(rolls) if rolls else None
        return None if r is None else {"id": r["id"], "expr": r["expr"], "total": r["total"]}
    kind = ch.number(9)
    if kind == 1:
        return ch.integer(-3, 30)
    if kind == 2:
        return ch.flip()
    if kind == 3:
        return ch.half_float()
    if kind == 4:
        return ch.pick(CELL_TEXTS)
    if kind == 5:
        return ref()
    if kind == 6:
        mods = {"formation": ch.integer(0, 2), "venue": ch.integer(0, 2)}
        return mods | {"event": ch.integer(-2, 2)} if ch.flip() else mods
    if kind == 7:
        return [ch.integer(0, 9) for _ in range(ch.integer(0, 3))]
    if kind == 8:
        return [ref() for _ in range(ch.integer(0, 2))]
    return None


FIELDS = ("slice", "team", "die_roll", "modifiers", "value", "shooter", "text")


def chapter(ch: Choices) -> dict[str, Any]:
    """A chapter with matches whose declared tables mix every cell type, absent and trailing null fields."""
    rolls = [r for r in roll_list(ch) if "#" in r["id"]]
    rolls = list({r["id"]: r for r in rolls}.values())
    matches = []
    for i in range(ch.integer(1, 3)):
        rows: list[Any] = []
        for _ in range(ch.integer(0, 6)):
            keys = list(dict.fromkeys(ch.pick(FIELDS) for _ in range(ch.integer(0, len(FIELDS)))))
            rows.append({k: _cell(ch, rolls) for k in keys})
        if rows and ch.flip():
            rows.insert(ch.integer(0, len(rows)), ch.pick([{"sealed_by": "x#1"}, {"other": 1}, 5]))
        matches.append({"id": ch.pick(["s1/m03/甲-乙", "s1/m03/丙-丁", f"m{i}"]), "attacks": rows,
                        "players": [{"id": f"p{j}", "name": "甲", "age": j} for j in range(ch.integer(0, 3))]})
    return {"rolls": rolls, "matches": matches}


def chapters() -> st.SearchStrategy[dict[str, Any]]:
    """:func:`chapter` from one draw of bytes (:mod:`tests.choices`)."""
    return built(chapter, size=600)


def _both(rec: dict[str, Any], **kw: Any) -> tuple[Any, Any]:
    """``compact(rec)`` by the plans and by the record-by-record rows (the error, if it raises)."""
    def run() -> Any:
        try:
            return compact(rec, {"attacks": FIELDS[:-1], "players": ("id", "name", "age")},
                           {"modifiers": ("formation", "venue", "event")}, **kw)
        except ValueError as e:
            return ValueError, str(e)
    planned = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compact_module._Compactor, "_declared", compact_module._Compactor._declared_rows)
        rowwise = run()
    return planned, rowwise


@settings(max_examples=60, deadline=None)
@given(chapters(), st.booleans())
def test_declared_plans_write_the_record_by_record_rows(rec: dict[str, Any], drop: bool) -> None:
    """The plan per cell types gives every table, reference, record row and refusal the rows gave."""
    before = copy.deepcopy(rec)
    planned, rowwise = _both(rec, drop=("text",) if drop else ())
    if isinstance(planned, tuple) and isinstance(rowwise, tuple):
        assert planned[0] is rowwise[0] is ValueError  # the same input refused (its first culprit may differ)
    else:
        assert planned == rowwise
        assert expand(planned) == expand(rowwise)
    assert rec == before  # compact copies


def test_mask_shares_what_nothing_sealed_reaches() -> None:
    """Unsealed records and lists are the input's own objects; each path to a sealed roll is a copy."""
    roll = {"id": "m#2", "purpose": "x", "expr": "1D6", "dice": [4], "total": 4, "hidden": True}
    calm = {"team": "甲", "lines": [[1, 2], {"n": 3}]}
    rec = {"matches": [{"id": "m", "calm": calm, "rolls": [{"id": "m#1", "dice": [1], "total": 1}, roll]}],
           "clubs": [calm]}
    before = copy.deepcopy(rec)
    out = mask_sealed(rec, frozenset({"m#2"}))
    assert rec == before
    assert out["clubs"] is rec["clubs"] and out["matches"][0]["calm"] is calm
    assert out["matches"][0]["rolls"][0] is rec["matches"][0]["rolls"][0]
    assert out is not rec and out["matches"] is not rec["matches"] and out["matches"][0]["rolls"] is not roll
    assert out["matches"][0]["rolls"][1] == {**roll, "dice": None, "total": None}
    assert list(out) == list(rec) and list(out["matches"][0]) == list(rec["matches"][0])
    assert mask_sealed(rec, frozenset({"elsewhere#1"})) is rec


def json_value(ch: Choices) -> Any:
    """A JSON value of at most 20 leaves (texts of up to six characters, keys of up to four, finite floats), lists
    and objects of up to four items (:mod:`tests.json_choices`)."""
    return json_choices.nested(ch, 20, lambda c: json_choices.leaf(c, texts=lambda t: json_choices.text(t, 6)),
                               lambda c: json_choices.text(c, 4))


@settings(max_examples=120, deadline=None)
@given(built(json_value, size=500))
def test_dump_json_line_encoder_is_the_encoders(value: Any) -> None:
    """The C encoder made once writes each value as ``JSONEncoder.encode`` with the project's settings."""
    assert output._line(value) == output._ENCODE(value)
    assert output.dump_json({"k": [value, {"x": value}], "d": {"v": value}}) == (
        '{\n "k": [\n  ' + output._ENCODE(value) + ',\n  {"x":' + output._ENCODE(value) + '}\n ],\n "d": {\n  "v": '
        + (output._ENCODE(value) if not (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value))
           else "[\n   " + ",\n   ".join(map(output._ENCODE, value)) + "\n  ]") + "\n }\n}\n")


def test_dump_json_refuses_what_the_encoder_refuses() -> None:
    """A NaN and an object that is not JSON are refused as before."""
    with pytest.raises(ValueError):
        output.dump_json({"x": [float("nan"), [1]]})
    with pytest.raises(TypeError):
        output.dump_json({"x": [object(), [1]]})


def test_collector_paused_restores_the_collector() -> None:
    """Paused inside, resumed after (an error too); left off when it was off."""
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
