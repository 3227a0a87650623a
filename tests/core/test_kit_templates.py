"""The common templates (``templates/_common``): every ruleset imports them, a host overrides them like any
template, the wheel ships them, and a link out of the folder is refused."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from anko_writer import render, resources
from anko_writer.ballot import Ballot, Option, Question
from anko_writer.errors import AnkoError
from anko_writer.render import render_chapter
from anko_writer.resources import Resources

ROOT = Path(__file__).resolve().parents[2]
VOTE = "{% import '_common/vote.j2' as common %}" \
       "{% call common.how_to_vote('明晚八点', ballot) %}。规则。复制：{% endcall %}"


def _ballot() -> dict[str, object]:
    plan = Question("打法", ("plan",), options=(Option("稳", ("甲", "稳")),))
    return Ballot("t1", ("votes", "t1"), (plan,)).to_record()


def _fake(root: Path, text: str) -> Resources:
    folder = root / "templates" / "fake"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "v.md.j2").write_text(text, encoding="utf-8")
    return Resources("fake", root)


def test_vote_paragraph_and_reply_line(tmp_path: Path) -> None:
    """The paragraph opens with the deadline and the one-vote rule, the caller's rules follow, then the line."""
    out = render_chapter(_fake(tmp_path, VOTE), "v.md.j2", {"ballot": _ballot()})
    assert out.startswith("**怎么投**：截止 **明晚八点**。每位读者一票，同一人投了几次以截止前的最后一次为准；"
                          "截止后的票、格式认不出的票单独列出，不计入。规则。复制：\n\n```\n【安价 t1】")
    assert out.rstrip().endswith("```")


def test_host_overrides_common(tmp_path: Path) -> None:
    """``<campaign>/templates/_common/vote.j2`` wins over the core's, as any host template does."""
    res = _fake(tmp_path, VOTE)
    own = tmp_path / "templates" / "_common"
    own.mkdir(parents=True)
    (own / "vote.j2").write_text("{% macro how_to_vote(d, b) %}自定{{ d }}{{ caller() }}{% endmacro %}",
                                 encoding="utf-8")
    assert render_chapter(res, "v.md.j2", {"ballot": _ballot()}) == "自定明晚八点。规则。复制：\n"


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_common_link_outside_refused(tmp_path: Path) -> None:
    """A host ``_common`` template that links outside its folder is refused with a located error."""
    res = _fake(tmp_path / "camp", VOTE)
    (tmp_path / "secret.j2").write_text("秘密", encoding="utf-8")
    own = tmp_path / "camp" / "templates" / "_common"
    own.mkdir(parents=True)
    (own / "vote.j2").symlink_to(tmp_path / "secret.j2")
    with pytest.raises(AnkoError, match="vote.j2: 符号链接指向 .*secret.j2，在 "):
        render_chapter(res, "v.md.j2", {"ballot": _ballot()})


def test_seal_and_reveal_lists(tmp_path: Path) -> None:
    """dice.j2 lists seal (or reveal) lines, each led by the indent, no newline after the last."""
    roll = {"id": "t/a#1", "expr": "1D6", "dice": [4], "total": 4, "hidden": True, "purpose": "p"}
    res = _fake(tmp_path, "{% import '_common/dice.j2' as d %}[{{ d.seal_list([r, r], '  ') }}]"
                          "[{{ d.reveal_list([r]) }}]")
    out = render_chapter(res, "v.md.j2", {"r": roll}, seed=7)
    seals = re.findall(r"  - 〔封存｜编号 t/a#1｜1D6＝？？？｜承诺 [0-9a-f]{64}〕", out)
    assert len(seals) == 2 and out.count("\n") == 2
    assert "[- 〔揭晓｜编号 t/a#1｜1D6＝4｜盐 " in out


def test_every_ruleset_imports_the_common_vote() -> None:
    """The 怎么投 paragraph is written once: each ruleset's vote goes through _common/vote.j2."""
    for rs in ("ball", "bloodbowl", "purasbar"):
        texts = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "templates" / rs).glob("*.j2"))
        assert "{% import '_common/vote.j2' as common %}" in texts
        assert "common.how_to_vote(" in texts
    shipped = "".join(p.read_text(encoding="utf-8") for rs in ("ball", "bloodbowl", "purasbar")
                      for p in (ROOT / "templates" / rs).glob("*.j2") if p.name != "rules.md.j2")
    assert "同一人投了几次以截止前的最后一次为准" not in shipped


def test_wheel_ships_common() -> None:
    """The wheel force-includes templates/, so templates/_common ships, and the core finds it."""
    assert '"templates" = "anko_writer/_data/templates"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (resources.builtin_dir("templates") / render.COMMON / "vote.j2").is_file()
    assert (resources.builtin_dir("templates") / render.COMMON / "dice.j2").is_file()
