"""Names in the traditional-script export (issue 28): OpenCC's phrase rules turned 弗里茨 into 「弗裡茨」 while seal
ids keep 弗里茨; a name of the world is converted character by character with a transliterated 里 kept, and spelled
one way throughout the export."""

from __future__ import annotations

import json
from pathlib import Path

from anko_writer.export.posts import names_under
from anko_writer.export.script import as_name, to_traditional


def test_a_name_keeps_its_transliterated_li_and_is_converted_character_by_character() -> None:
    assert as_name("弗里茨") == "弗里茨" and as_name("洛伦茨") == "洛倫茨"
    text = "弗里茨在这里破门。〔揭晓｜编号 s1/弗里茨#1｜1D100＝46｜盐 " + "0" * 32 + "〕"
    out = to_traditional(text, "tw", names=["弗里茨"])
    assert out.startswith("弗里茨在這裡破門。") and out.endswith("〔揭晓｜编号 s1/弗里茨#1｜1D100＝46｜盐 " + "0" * 32 + "〕")
    assert to_traditional("弗里茨", "tw") == "弗裡茨"  # what OpenCC alone does: the reason for this rule


def test_the_names_come_from_the_chapters_json(tmp_path: Path) -> None:
    (tmp_path / "s01").mkdir()
    (tmp_path / "s01" / "m01.json").write_text(json.dumps({"scorer": "弗里茨", "club": "雷希特", "n": 3},
                                                          ensure_ascii=False), encoding="utf-8")
    assert {"弗里茨", "雷希特"} <= names_under(tmp_path)
