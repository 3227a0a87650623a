"""Secret facts through the whole publish path (DESIGN §10): a fact sealed in part 1 and revealed in part 3 says
nothing before its reveal, whatever its payload; the core masks it, refuses a leak of it, carries it across arcs,
and ``verify`` checks it.

The chapters are the coinduel plug-in's campaign with a template of the test's own (a campaign folder's
``templates/coinduel/fact.md.j2``), rendered and guarded by the CLI's own ``chapter_files``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from anko_writer import cli
from anko_writer import ruleset as registry
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import Chapter, ChapterKey
from anko_writer.hidden import salt_for, scan, verify_dir
from anko_writer.ruleset import Ruleset
from anko_writer.schema import validate
from anko_writer.seals import SEAL_RECORD, SealBook
from anko_writer.secrecy import SecretLeak

PLUGIN = Path(__file__).resolve().parent.parent / "coinduel"
COMMIT = re.compile(r"[0-9a-f]{64}")
FACT_ID = "d1/伏/埋伏#1"
TEMPLATE = """# 第{{ part | cn_num }}局

敌方在林地边缘停留了片刻。
{% for f in sealed %}
敌方的伏兵已经布下，位置封存：

{{ f | seal }}
{% endfor %}
{% for r in reveals %}
伏兵现身！

{{ r | reveal }}

伏兵藏在{{ r.fact.zone }}，共{{ r.fact.men }}人。
{% endfor %}
"""


@pytest.fixture
def campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Campaign]:
    """A coinduel campaign whose folder adds ``fact.md.j2``."""
    from typer.testing import CliRunner

    monkeypatch.syspath_prepend(str(PLUGIN))
    import coinduel as plugin

    rs: Ruleset = plugin.RULESET
    monkeypatch.setitem(registry._NAMED, "coinduel", rs)
    if registry._REGISTRY is not None:
        monkeypatch.setitem(registry._REGISTRY, "coinduel", rs)
    res = CliRunner().invoke(cli.app, ["new", str(tmp_path), "--ruleset", "coinduel", "--seed", "20240611",
                                       "--option", "name=阿尔托"])
    assert res.exit_code == 0, res.output
    folder = tmp_path / "templates" / "coinduel"
    folder.mkdir(parents=True)
    (folder / "fact.md.j2").write_text(TEMPLATE, encoding="utf-8")
    yield load_campaign(next(tmp_path.glob("*.yaml")))


def _play(payload: dict[str, Any], book: SealBook | None = None, arc: int = 1, parts: int = 3) -> list[Chapter]:
    """Parts 1..``parts`` of ``arc``: part 1 of arc 1 seals ``payload`` as a fact due two parts later."""
    book = book if book is not None else SealBook()
    chapters = []
    for part in range(1, parts + 1):
        at = ChapterKey(arc, part)
        reveals = book.due(at, lambda outcome: None)
        sealed = [book.seal_fact(FACT_ID, payload, at, delay=2, purpose="伏兵")] if (arc, part) == (1, 1) else []
        results = {"ruleset": "coinduel", "arc": arc, "part": part, "sealed": sealed, "reveals": reveals,
                   "ambush": [{"sealed_by": FACT_ID, "zone": payload["zone"]}] if sealed else []}
        chapters.append(Chapter(arc, part, results, "fact.md.j2"))  # no public=: the core masks
    return chapters


def _files(camp: Campaign, chapters: list[Chapter]) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in chapters:
        out.update(cli.chapter_files(camp.resources(), c, camp))
    return out


A = {"zone": "北侧林地", "men": 30, "unit": "游侠"}
B = {"zone": "南侧河岸", "men": 45, "unit": "巨魔"}


def test_nothing_before_the_reveal_depends_on_the_payload(campaign: Campaign) -> None:
    """Parts 1 and 2 are byte-identical apart from the commitment whatever the fact; part 3 reveals it."""
    a, b = _files(campaign, _play(A)), _files(campaign, _play(B))
    assert set(a) == set(b) == {f"d01/b0{p}.{ext}" for p in (1, 2, 3) for ext in ("md", "json")}
    before = [rel for rel in a if not rel.startswith("d01/b03")]
    assert {rel: COMMIT.sub("…", a[rel]) for rel in before} == {rel: COMMIT.sub("…", b[rel]) for rel in before}
    assert a["d01/b01.md"] != b["d01/b01.md"]  # the commitments differ: the test compares something
    assert "北侧林地" in a["d01/b03.md"] and "南侧河岸" in b["d01/b03.md"]
    public = json.loads(a["d01/b01.json"])
    assert public["sealed"] == [{"id": FACT_ID, "purpose": "伏兵", "fact": None, "hidden": True}]
    assert public["ambush"] == [{"sealed_by": FACT_ID}]
    assert json.loads(a["d01/b03.json"])["reveals"][0]["fact"] == A


def test_the_posts_verify_and_a_changed_payload_does_not(campaign: Campaign, tmp_path: Path) -> None:
    out = tmp_path / "posted"
    for rel, text in _files(campaign, _play(A)).items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")
    report = verify_dir(out)
    assert report.ok and report.checked == 1 and report.sealed == [], report.problems
    md = out / "d01" / "b03.md"
    md.write_text(md.read_text(encoding="utf-8").replace("北侧林地", "南侧河岸"), encoding="utf-8")
    problems = verify_dir(out).problems
    assert len(problems) == 1 and f"{FACT_ID} 的揭晓与" in problems[0] and "的承诺不符" in problems[0]


def test_the_guard_masks_the_fact_anywhere_and_refuses_what_it_cannot_mask(campaign: Campaign) -> None:
    ch = _play(A, parts=1)[0]
    # the fact's record under a key of the ruleset's own: the core masks it by its id
    moved = Chapter(ch.arc, ch.part, ch.results, "fact.md.j2", public={"hidden_units": ch.results["sealed"]})
    assert json.loads(_files(campaign, [moved])["d01/b01.json"])["hidden_units"][0]["fact"] is None
    # an extra JSON file the core does not rewrite, holding the payload: refused, nothing written
    leaky = Chapter(ch.arc, ch.part, ch.results, "fact.md.j2",
                    files={"units.json": json.dumps({"units": ch.results["sealed"]}, ensure_ascii=False)})
    with pytest.raises(SecretLeak, match=f"units.json: 里面有封存事实 {re.escape(FACT_ID)} 的内容"):
        _files(campaign, [leaky])
    salted = Chapter(ch.arc, ch.part, ch.results, "fact.md.j2",
                     files={"note.txt": f"盐 {salt_for(campaign.seed, FACT_ID)}\n"})
    with pytest.raises(SecretLeak, match=f"note.txt: 里面有封存骰 {re.escape(FACT_ID)} 的盐值"):
        _files(campaign, [salted])


def test_a_fact_is_carried_into_the_next_arc(campaign: Campaign) -> None:
    """Sealed in the last part of an arc, the fact goes through the state file's records (and their schema)
    and is revealed in the next arc with its payload."""
    book = SealBook()
    book.seal_fact(FACT_ID, A, ChapterKey(1, 3), delay=2, purpose="伏兵")
    records = json.loads(json.dumps(book.carry(3), ensure_ascii=False))
    assert records[0]["fact"]["fact"] == A and "roll" not in records[0]
    checked = [validate(r, SEAL_RECORD, "state.json") for r in records]
    nxt = SealBook.carried_in(checked)
    assert [s.due for s in nxt.pending()] == [ChapterKey(2, 2)]
    chapters = _play(A, nxt, arc=2, parts=2)
    md = cli.chapter_files(campaign.resources(), chapters[1], campaign)["d02/b02.md"]
    assert [r.roll_id for r in scan(md)[1]] == [FACT_ID] and "北侧林地" in md


def test_a_fact_that_is_not_json_or_sealed_twice_is_refused() -> None:
    book = SealBook()
    with pytest.raises(ValueError, match="JSON values only"):
        book.seal_fact("x#1", {"a": object()}, ChapterKey(1, 1), 1)
    book.seal_fact("x#1", {"a": 1}, ChapterKey(1, 1), 1)
    with pytest.raises(ValueError, match="sealed already"):
        book.seal_fact("x#1", {"a": 2}, ChapterKey(1, 1), 1)
