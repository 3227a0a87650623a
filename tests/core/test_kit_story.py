"""The story kit: weighted beats, one per (kind, subject), an arc memo so no (kind, subject) heads two
chapters, the title counter, phrase keys; and the two rulesets' story engines on it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from anko_writer.kit import story
from anko_writer.kit.story import Beat, Memo
from anko_writer.rulesets.bloodbowl.league import story as bb_story
from anko_writer.rulesets.purasbar.season import headlines

beats = st.lists(st.builds(Beat, st.sampled_from(["win", "loss", "goal"]), st.integers(0, 9),
                           st.sampled_from(["", "甲", "乙"])), max_size=8)


@given(st.lists(beats, max_size=6))
def test_no_kind_and_subject_heads_two_chapters(chapters: list[list[Beat]]) -> None:
    """Across an arc the heads are all different, and a chapter is headed whenever it has a fresh beat."""
    memo, heads = Memo(), []
    for ch in chapters:
        r = story.rank(ch, memo)
        fresh = {(b.kind, b.subject) for b in ch} - set(memo.heads)
        assert (r.head is not None) == bool(fresh)
        if r.head is not None:
            assert r.beats[0] is r.head and (r.head.kind, r.head.subject) in fresh
            assert r.head.weight == max(b.weight for b in ch if (b.kind, b.subject) in fresh)
            heads.append((r.head.kind, r.head.subject))
        assert len({b.tag for b in r.beats}) == len(r.beats)
        memo = r.memo
    assert len(heads) == len(set(heads)) and list(memo.heads) == heads


def test_before_counts_earlier_chapters() -> None:
    """``before`` says how many earlier chapters told a beat of that kind and subject."""
    memo = Memo()
    for n in range(3):
        r = story.rank([Beat("goal", 5, "甲"), Beat("goal", 7, "甲")], memo)
        assert r.before == {"goal|甲": n} and r.beats[0].weight == 7
        memo = r.memo


def test_heaviest_tie_and_order() -> None:
    """Heaviest first; on equal weight the tie key, then the given order."""
    a, b, c = Beat("a", 1, facts={"turn": 5}), Beat("b", 1, facts={"turn": 2}), Beat("c", 3)
    assert story.heaviest([a, b, c]) == [c, a, b]
    assert story.heaviest([a, b, c], tie=lambda x: x.facts.get("turn", 0)) == [c, b, a]


def test_count_and_phrase_key() -> None:
    """The title counter says how often a key was used before; phrase keys are prefix_kind."""
    counts: dict[str, int] = {}
    assert [story.count(counts, "td_ours") for _ in range(3)] == [0, 1, 2]
    assert story.phrase_key("title", "win") == "title_win"


def test_purasbar_headlines_keep_their_memo_format() -> None:
    """purasbar's month ranking (now on the kit) still writes heads as lists and seen as kind|subject."""
    rec = {"month": 3, "club": "甲", "our_matches": [0], "clubs": [], "standings": [], "reveals": [],
           "matches": [{"home": "甲", "away": "乙", "score": [2, 0], "winner": "甲", "competition": "league",
                        "attacks": [], "lineups": {}}]}
    events, memo = headlines.rank(rec, headlines.fresh())
    assert memo["heads"] == [["win", "乙"]] and memo["seen"] == {"win|乙": 1}
    assert events[0]["lead"] and events[0]["before"] == 0
    events, memo = headlines.rank(rec, memo)
    assert not events[0]["lead"] and events[0]["before"] == 1 and memo["heads"] == [["win", "乙"]]


def test_bloodbowl_moments_weighted_and_ordered() -> None:
    """Blood Bowl's moments: WEIGHTS plus one for ours, heaviest first, then by turn."""
    record = {"half": 1, "turns": [], "casualties": [{"team": "他队", "name": "甲"}]}
    ranked = bb_story.moments(record, [], "我队", "home", None)
    assert [(m["kind"], m["weight"]) for m in ranked] == [("cas", bb_story.WEIGHTS["cas"] + 1)]
