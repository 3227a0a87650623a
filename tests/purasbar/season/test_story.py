"""A match's story beats (``season.story``) from hand-built matches: a comeback, a late winner, a keeper's
goal, a goalless draw, a hat-trick, a shoot-out; and what each goal meant for the score."""

from __future__ import annotations

from typing import Any

from anko_writer.rulesets.purasbar.season.story import MAX_BEATS, goal_states, stories, story

US, THEM = "我方", "对手"


def _match(*goals: tuple[int, str, str, str], home: bool = True, winner: str | None = "",
           penalties: list[int] | None = None, misses: int = 2) -> dict[str, Any]:
    """One of our matches from its goals in order, each (slice, team, shooter, slot); a few missed attacks
    between them, as the record has."""
    attacks: list[dict[str, Any]] = []
    for s, team, shooter, slot in goals:
        attacks += [{"slice": s, "team": THEM, "goal": False, "shooter": None}] * misses
        attacks.append({"slice": s, "team": team, "goal": True, "shooter": shooter, "shooter_pos": slot})
    ours = sum(1 for g in goals if g[1] == US)
    theirs = len(goals) - ours
    if winner == "":
        winner = US if ours > theirs else THEM if theirs > ours else None
    return {"id": "m", "home": US if home else THEM, "away": THEM if home else US,
            "score": [ours, theirs] if home else [theirs, ours], "winner": winner, "extra_time": False,
            "penalties": penalties, "attacks": attacks}


def _kinds(m: dict[str, Any]) -> list[tuple[str, str]]:
    return [(b["kind"], b["verdict"]) for b in story(m, US)["beats"]]


def test_a_comeback_is_told_with_the_final_score() -> None:
    m = _match((1, THEM, "乙", "FW"), (2, THEM, "乙", "FW"), (4, US, "甲", "FW"), (5, US, "丙", "MF"),
               (5, US, "甲", "FW"), home=False)
    st = story(m, US)
    kinds = _kinds(m)
    assert kinds[0] == ("opener", "them") and st["beats"][0]["player"] == "乙"
    assert ("comeback", "us") == kinds[-1]  # the verdict: it states the score in place of a full-time line
    assert st["beats"][-1]["score"] == [3, 2] and st["beats"][-1]["number"] == 2
    assert not any(k == "fulltime" for k, _ in kinds)
    assert ("equaliser", "us") in kinds and ("winner", "us") in kinds  # how the score turned
    assert not any(k == "brace" for k, _ in kinds)  # at most five beats: the braces give way
    assert st["halftime"] == [0, 2]
    assert [g["state"] for g in st["goals"].values()] == ["opener", "extend", "pull_back", "equaliser", "lead"]
    assert len([k for k in kinds if k[0] != "run"]) <= MAX_BEATS  # issue 27: runs of untold goals come on top


def test_no_comeback_for_a_lead_we_never_lost() -> None:
    m = _match((1, US, "甲", "FW"), (2, THEM, "乙", "FW"), (4, US, "甲", "FW"))
    kinds = _kinds(m)
    assert ("comeback", "us") not in kinds and ("fulltime", "win_narrow") == kinds[-1]
    assert ("winner", "us") in kinds  # the 2 : 1 after their equaliser decided it


def test_a_late_winner_alone_is_told_once() -> None:
    m = _match((6, US, "甲", "FW"))
    st = story(m, US)
    kinds = _kinds(m)
    assert ("late_winner", "us") in kinds and ("opener", "us") not in kinds
    late = next(b for b in st["beats"] if b["kind"] == "late_winner")
    assert late["minute"] == "90′+" and late["when"] == "下半场补时" and late["player"] == "甲"
    assert ("halftime", "goalless") in kinds and ("clean_sheet", "us") in kinds
    assert kinds[-1] == ("fulltime", "win_narrow")


def test_a_late_winner_after_the_opener_and_their_late_equaliser() -> None:
    won = _match((2, US, "甲", "FW"), (5, THEM, "乙", "FW"), (6, US, "丙", "FW"))
    assert ("late_winner", "us") in _kinds(won) and ("opener", "us") in _kinds(won)
    drawn = _match((2, US, "甲", "FW"), (6, THEM, "乙", "FW"))
    assert ("late_equaliser", "them") in _kinds(drawn) and ("equaliser", "them") not in _kinds(drawn)
    assert _kinds(drawn)[-1] == ("fulltime", "draw")
    lost = _match((2, US, "甲", "FW"), (4, THEM, "乙", "FW"), (8, THEM, "丁", "FW"), winner=THEM)
    assert ("late_winner", "them") in _kinds(lost) and ("comeback", "them") in _kinds(lost)


def test_our_keepers_goal_is_rare_and_theirs_is_only_in_the_fold() -> None:
    m = _match((3, US, "门", "GK"), (4, THEM, "后", "DF"), (5, US, "卫", "DF"))
    st = story(m, US)
    kinds = _kinds(m)
    # one rare sentence; the keeper's goal opened the scoring, so it only remarks on who scored
    assert ("rare_keeper", "same_us") in kinds and not any(k == "rare_defender" for k, _ in kinds)
    assert kinds[0] == ("opener", "us")
    assert next(b for b in st["beats"] if b["kind"] == "rare_keeper")["player"] == "门"
    assert [g["rare"] for g in st["goals"].values()] == ["keeper", "defender", "defender"]
    assert [g["side"] for g in st["goals"].values()] == ["us", "them", "us"]


def test_the_equaliser_told_is_the_one_the_winner_broke() -> None:
    m = _match((1, US, "甲", "FW"), (2, THEM, "乙", "FW"), (4, THEM, "丙", "FW"), (5, US, "丁", "FW"),
               (8, THEM, "戊", "FW"))
    st = story(m, US)
    eq = next(b for b in st["beats"] if b["kind"] == "equaliser")
    assert (eq["player"], eq["side"], eq["score"]) == ("丁", "us", [2, 2])
    assert [(b["kind"], b["verdict"]) for b in st["beats"]][-2:] == [("late_winner", "them"), ("comeback", "them")]


def test_a_rare_goal_no_other_sentence_tells_is_told_in_full() -> None:
    m = _match((1, US, "甲", "FW"), (2, US, "卫", "DF"))
    rare = next(b for b in story(m, US)["beats"] if b["kind"] == "rare_defender")
    assert (rare["verdict"], rare["player"], rare["when"]) == ("us", "卫", "上半场中段")


def test_a_goalless_draw() -> None:
    m = _match()
    kinds = _kinds(m)
    assert kinds == [("goalless", "level"), ("clean_sheet", "us"), ("fulltime", "goalless")]
    assert story(m, US)["goals"] == {} and story(m, US)["halftime"] == [0, 0]


def test_a_hat_trick_and_a_big_win() -> None:
    m = _match((1, US, "甲", "FW"), (2, US, "甲", "FW"), (4, US, "乙", "MF"), (5, US, "甲", "FW"), misses=0)
    st = story(m, US)
    hat = next(b for b in st["beats"] if b["kind"] == "hat_trick")
    assert (hat["player"], hat["number"], hat["side"]) == ("甲", 3, "us")
    assert _kinds(m)[-1] == ("fulltime", "win_big") and st["beats"][-1]["number"] == 4
    assert ("halftime", "lead_us") in _kinds(m) and st["halftime"] == [2, 0]
    assert [g["state"] for g in st["goals"].values()] == ["opener", "extend", "extend", "extend"]


def test_a_shoot_out_is_the_verdict_not_a_comeback() -> None:
    m = _match((2, THEM, "乙", "FW"), (7, US, "甲", "FW"), winner=US, penalties=[4, 3])
    kinds = _kinds(m)
    assert kinds[-1] == ("fulltime", "pens_win") and ("comeback", "us") not in kinds
    assert not any(k in ("winner", "late_winner") for k, _ in kinds)  # the shoot-out decided it
    lost = _match((2, US, "甲", "FW"), (3, THEM, "乙", "FW"), winner=THEM, penalties=[2, 4])
    assert _kinds(lost)[-1] == ("fulltime", "pens_loss") and ("comeback", "them") not in _kinds(lost)


def test_beats_are_in_match_order_and_at_most_five() -> None:
    goals = [(s, US if i % 2 == 0 else THEM, "甲" if i % 2 == 0 else "乙", "FW") for i, s in enumerate(range(1, 7))]
    goals.append((6, US, "门", "GK"))
    st = story(_match(*goals), US)
    assert len([b for b in st["beats"] if b["kind"] != "run"]) == MAX_BEATS
    goal_beats = [b for b in st["beats"] if b["minute"]]
    order = ["1′–18′", "20′–45′", "45′+", "46′–64′", "66′–90′", "90′+"]
    assert [order.index(str(b["minute"])) for b in goal_beats] == sorted(order.index(str(b["minute"]))
                                                                          for b in goal_beats)


def test_goal_states_follow_the_running_score() -> None:
    m = _match((1, THEM, "乙", "FW"), (2, US, "甲", "FW"), (3, US, "甲", "FW"), (6, THEM, "乙", "FW"))
    states = goal_states(m, US)
    assert [(g["state"], g["side"], g["score"], g["late"]) for g in states.values()] == [
        ("opener", "them", [0, 1], False), ("equaliser", "us", [1, 1], False), ("lead", "us", [2, 1], False),
        ("equaliser", "them", [2, 2], True)]
    # keyed by the attack's index in the record, so the fold finds each goal's state
    assert all(m["attacks"][i]["goal"] for i in states)


def test_stories_cover_our_matches_only() -> None:
    ours, other = _match((1, US, "甲", "FW")), {**_match(), "id": "x", "home": "丙", "away": "丁"}
    rec = {"club": US, "matches": [other, ours], "our_matches": [1]}
    assert list(stories(rec)) == ["m"]
