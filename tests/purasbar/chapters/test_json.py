"""The 群英杯's publishable JSON (issue 14, docs/json.md): a fifth of its former size, nothing a checker
needs left out. Reads the shared three-season CLI run (``three``) and the in-memory season (``season_245``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anko_writer.compact import expand
from anko_writer.hidden import mask_sealed
from anko_writer.rulesets.purasbar.season.publish import ATTACK_FIELDS, GOAL_THRESHOLD, LINEUP_COLUMNS, SHOT_THRESHOLD, publish
from tests.purasbar.chapters.test_secrets import leaks
from tests.purasbar.published import records

BASELINE_BYTES = 15_150_768
"""The JSON of ``campaigns/recht.yaml`` season 1 (``s01/m01.json`` … ``m12.json``, ``end.json``) before
issue 14: every roll record repeated inside the records it decided, every list of records with its keys."""

MATCH_KEYS = ("id", "competition", "round", "home", "away", "neutral", "score", "extra_time", "penalties", "attacks")
CLUB_KEYS = ("name", "city", "total", "initial_abilities", "abilities", "players")
PLAYER_KEYS = ("name", "position", "core", "age", "ATK", "DEF", "MID", "GK", "STA", "MNT", "stamina", "morale",
               "injured_weeks")
ROLL_KEYS = ("id", "purpose", "expr", "dice", "total", "hidden")
STANDING_KEYS = ("team", "played", "won", "drawn", "lost", "gf", "ga", "points")
ROLL_REFS = {"die_roll": "die", "finish_roll": "finish_die"}
"""An attack's roll reference → the attack field that holds that roll's total."""


def _chapters(out: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every chapter JSON under ``out`` with its record read back by :func:`expand` (once a process, shared by
    the tests that read them: :mod:`tests.purasbar.published`)."""
    return records(out, "s*/*.json")


def test_a_season_is_at_most_a_fifth_of_its_former_size(three: tuple[Path, int]) -> None:
    out, _ = three
    size = sum(p.stat().st_size for p in (out / "s01").glob("*.json"))
    assert size * 5 <= BASELINE_BYTES, f"{size:,} bytes is {size / BASELINE_BYTES:.1%} of {BASELINE_BYTES:,}"


def test_the_contract_keys_keep_their_meaning(three: tuple[Path, int]) -> None:
    """Read back, every key DESIGN §5 lists is there, with its shape."""
    out, _ = three
    for path, rec in _chapters(out):
        assert (rec["ruleset"], rec["season"]) == ("purasbar", int(path.parent.name[1:])) and "month" in rec
        assert all(tuple(r)[:6] == ROLL_KEYS for r in rec["rolls"]), path
        assert all(isinstance(r["dice"], list) or r["dice"] is None for r in rec["rolls"]), path
        for st in rec["standings"]:
            assert set(STANDING_KEYS) <= set(st), path
        for club in rec["clubs"]:
            assert set(CLUB_KEYS) <= set(club) and all(set(PLAYER_KEYS) <= set(p) for p in club["players"]), path
        for m in rec.get("matches", []):
            assert set(MATCH_KEYS) <= set(m), (path, m["id"])
            for a in m["attacks"]:
                assert set(ATTACK_FIELDS) <= set(a) and all(isinstance(v, int) for v in a["modifiers"].values())


def test_every_roll_of_an_attack_is_in_the_chapters_rolls(three: tuple[Path, int]) -> None:
    out, _ = three
    checked = 0
    for path, rec in _chapters(out):
        rolls = {r["id"]: r for r in rec["rolls"]}
        assert len(rolls) == len(rec["rolls"]), path  # ids are unique
        for m in rec.get("matches", []):
            for a in m["attacks"]:
                for ref, field in ROLL_REFS.items():
                    if a[ref] is None:
                        assert a[field] is None, (path, a)
                        continue
                    roll = rolls[a[ref]]
                    assert roll["id"].startswith(m["id"] + "#") and roll["total"] == a[field] == sum(roll["dice"])
                    checked += 1
                assert a["die_sides"] == int(rolls[a["die_roll"]]["expr"].split("D")[1])
                for ref in ("group_roll", "pick_roll"):
                    assert a[ref] is None or a[ref] in rolls, (path, a)
    assert checked > 10_000


def test_every_attack_value_recomputes(three: tuple[Path, int]) -> None:
    """value = attack_avg − defense_avg + die + Σ modifiers; the group means, the shot and the goal too."""
    out, _ = three
    for path, rec in _chapters(out):
        for m in rec.get("matches", []):
            for a in m["attacks"]:
                assert a["value"] == a["attack_avg"] - a["defense_avg"] + a["die"] + sum(a["modifiers"].values())
                assert a["attack_avg"] == (a["attack_fw"] + a["attack_mf"]) // 2
                assert a["defense_avg"] == (a["defense_df"] + a["defense_mf"]) // 2
                assert a["shot"] == (a["value"] > SHOT_THRESHOLD), (path, a)
                if a["finish_value"] is not None:
                    assert a["finish_value"] == a["finish_die"] + (a["shooter_atk"] - a["keeper_gk"]) // 2
                    assert a["goal"] == (a["finish_value"] > GOAL_THRESHOLD)
                else:
                    assert a["goal"] is False
            goals = [sum(a["goal"] for a in m["attacks"] if a["team"] == t) for t in (m["home"], m["away"])]
            assert goals == m["score"], (path, m["id"])


def test_line_ups_name_who_played(three: tuple[Path, int]) -> None:
    """Every shooter is in his side's line-up; a line-up row has the published columns."""
    out, _ = three
    for _, rec in _chapters(out):
        for m in rec.get("matches", []):
            names = {side: {e["name"] for e in m["lineups"][side]} for side in ("home", "away")}
            assert all(set(e) == set(LINEUP_COLUMNS) for side in ("home", "away") for e in m["lineups"][side])
            for a in m["attacks"]:
                side = "home" if a["team"] == m["home"] else "away"
                assert a["shooter"] is None or a["shooter"] in names[side]


def test_no_seed_and_no_unrevealed_salt_in_the_json(three: tuple[Path, int]) -> None:
    out, seed = three
    assert [p for p in leaks(out, seed) if ".json" in p] == []


def test_published_json_reads_back_as_the_masked_results(season_245) -> None:  # noqa: ANN001
    """In memory: what is written is :func:`publish` of the masked results, and reads back to them."""
    _, run = season_245
    for ch in run.chapters:
        assert ch.public_of is not None
        back = expand(ch.json_record())
        sealed = {r["id"] for r in back["rolls"] if r["hidden"] and r["total"] is None}
        masked = mask_sealed(ch.results, frozenset(sealed))
        assert back["rolls"] == masked["rolls"]
        assert back["standings"] == masked["standings"]
        for mine, theirs in zip(back.get("matches", []), masked.get("matches", []), strict=True):
            assert {k: mine[k] for k in MATCH_KEYS[:-1]} == {k: theirs[k] for k in MATCH_KEYS[:-1]}
            assert [{k: a[k] for k in ATTACK_FIELDS} for a in mine["attacks"]] == \
                [{k: a[k] for k in ATTACK_FIELDS} for a in theirs["attacks"]]
        assert publish(masked) == ch.json_record()
