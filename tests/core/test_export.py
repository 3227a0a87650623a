"""``anko-writer export``: forum posts from written chapters, tested like a host pasting them.

Round trips over three real seasons for every shipped profile (each post under its limit, no Markdown
left in BBCode or plain text, tags balanced, nothing split inside a row, a dice line, a seal or a fold,
every hidden die still verifiable, traditional script included), the splitter on pinned inputs, the
profile files' located errors, and the export's safety (deterministic, stale posts removed, a post
edited by hand protected).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from anko_writer import hidden
from anko_writer.cli import app
from anko_writer.export.doc import Fold, Heading, Para, Table, Vote, parse
from anko_writer.export.markup import render
from anko_writer.export.posts import INDEX, chapter_posts, export_files
from anko_writer.export.profile import ProfileError, load_profile, shipped
from anko_writer.export.split import CONTINUED, TooLarge, pack
from tests.core.export_folders import PROFILES, season_one

DICE = re.compile(r"「[^「」\n]*＝[^「」\n]*」")
BB_TAG = re.compile(r"\[(/?)([a-z*]+)(?:=[^\]]*)?\]")


@pytest.fixture(scope="module")
def exported(three: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole season of the built-in campaign (and the rules post) exported for every profile, and twice
    in 繁體 (:func:`tests.core.export_folders.season_one`: built once a run; read only)."""
    return season_one(three, tmp_path_factory)


def _posts(out: Path, folder: str) -> list[Path]:
    """Every post file of one export folder (not its index)."""
    return sorted(p for p in (out / "export" / folder).rglob("*") if p.is_file() and p.name != INDEX)


def test_shipped_profiles() -> None:
    assert shipped() == sorted(PROFILES)
    assert load_profile("discuz").limit == 10000 and load_profile("discuz").count == "utf8"


@pytest.mark.parametrize("folder", ["nga", "discuz", "tieba", "markdown", "discuz-hant", "nga-hant-hk"])
def test_posts_fit_and_keep_lines_whole(exported: Path, folder: str) -> None:
    profile = load_profile(folder.split("-")[0])
    posts = _posts(exported, folder)
    assert len(posts) > 10
    for post in posts:
        text = post.read_text(encoding="utf-8")
        assert profile.size(text) <= profile.limit, post
        # a dice line, a seal and a reveal are never cut: every opening bracket closes on its line
        for line in text.splitlines():
            assert line.count("「") == line.count("」"), (post, line)
            assert line.count("〔") == line.count("〕"), (post, line)


@pytest.mark.parametrize("folder", ["nga", "discuz", "tieba", "discuz-hant"])
def test_no_markdown_left(exported: Path, folder: str) -> None:
    for post in _posts(exported, folder):
        text = post.read_text(encoding="utf-8")
        assert "**" not in text, post
        assert not re.search(r"^(#{1,6} |\|.*\||::: ?|> |- )", text, re.M), post


@pytest.mark.parametrize("folder", ["nga", "discuz", "discuz-hant"])
def test_bbcode_tags_balance(exported: Path, folder: str) -> None:
    for post in _posts(exported, folder):
        stack: list[str] = []
        for m in BB_TAG.finditer(post.read_text(encoding="utf-8")):
            closing, name = m.group(1), m.group(2)
            if name in ("*", "hr"):
                continue
            if closing:
                assert stack and stack[-1] == name, (post, m.group(), stack)
                stack.pop()
            else:
                stack.append(name)
        assert not stack, (post, stack)


def test_nga_folds_and_discuz_appendix(exported: Path) -> None:
    nga = "\n".join(p.read_text(encoding="utf-8") for p in _posts(exported, "nga"))
    assert "[collapse=逐切片骰子：" in nga and "[collapse=完整积分榜]" in nga
    discuz = [p.read_text(encoding="utf-8") for p in _posts(exported, "discuz")]
    assert not any("collapse" in t for t in discuz)
    # a month: the main text refers to the appendix; appendix posts follow; the vote ends the last post
    month = [t for p, t in zip(_posts(exported, "discuz"), discuz, strict=False) if "/s01/002-m02-" in p.as_posix()]
    refs = [i for i, t in enumerate(month) if "见附录 1）" in t]
    appendix = [i for i, t in enumerate(month) if "附录 1　" in t]
    assert refs and appendix and refs[0] < appendix[0]
    assert "下月安价" in month[-1] and "请投票" in month[-1]
    assert all("下月安价" not in t for t in month[:-1])
    assert all(t.startswith(f"[color=gray]第一赛季 · 第二月（{k}/{len(month)}）") for k, t in enumerate(month, 1))


def test_tables_as_lines_on_tieba(exported: Path) -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in _posts(exported, "tieba"))
    assert "[" not in text.replace("[b]", "")  # no BBCode on a plain-text forum
    assert re.search(r"^名次\s+球队\s+场\s+胜", text, re.M)


def test_every_export_verifies(exported: Path) -> None:
    report = hidden.verify_dir(exported)
    assert report.ok, report.problems[:5]
    per_series = report.checked // 8  # chapters + seven export folders
    assert per_series > 0 and report.checked == per_series * 8


def test_traditional_keeps_seals_byte_identical(exported: Path) -> None:
    simple = "".join(p.read_text(encoding="utf-8") for p in _posts(exported, "discuz"))
    trad = "".join(p.read_text(encoding="utf-8") for p in _posts(exported, "discuz-hant"))
    def spans(text: str) -> list[str]:
        return [text[a:b] for a, b in hidden.hidden_spans(text)]
    assert spans(simple) and spans(simple) == spans(trad)
    assert "賽季" in trad and "赛季" not in trad
    assert "後衛" in trad  # Taiwan standard
    assert "後衞" in "".join(p.read_text(encoding="utf-8") for p in _posts(exported, "nga-hant-hk"))  # Hong Kong


def test_html_pages(exported: Path) -> None:
    pages = sorted((exported / "export" / "html").glob("s*.html"))
    assert [p.name for p in pages] == ["s01.html"]
    first = pages[0].read_text(encoding="utf-8")
    assert first.count("<article") == 14  # the rules post, twelve months, the settlement
    assert "<details><summary>逐切片骰子：" in first and "<table>" in first
    assert "http" not in first and "src=" not in first  # nothing fetched; the one inline script is the copy buttons
    assert first.count("<script>") == 1 and first.count('<button class="copy"') == first.count("<article")


def test_index_lists_posts_in_order(exported: Path) -> None:
    lines = (exported / "export" / "nga" / INDEX).read_text(encoding="utf-8").splitlines()
    listed = [line.split(". ", 1)[1].split("　")[0] for line in lines if re.match(r"\d+\. ", line)]
    assert listed[0] == "000-rules-1.bbcode"
    assert listed == [p.relative_to(exported / "export" / "nga").as_posix() for p in _posts(exported, "nga")]


def test_deterministic_and_stale_posts(exported: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(exported, out)
    before = {p: p.read_bytes() for p in _posts(out, "tieba")}
    assert CliRunner().invoke(app, ["export", str(out), "--forum", "tieba"]).exit_code == 0
    assert {p: p.read_bytes() for p in _posts(out, "tieba")} == before
    # a host's copy with a larger limit: fewer posts, and the old ones are removed
    mine = tmp_path / "tieba.yaml"
    mine.write_text((Path(load_profile("tieba").source)).read_text(encoding="utf-8").replace("limit: 5000", "limit: 20000"),
                    encoding="utf-8")
    assert CliRunner().invoke(app, ["export", str(out), "--forum", str(mine)]).exit_code == 0
    after = _posts(out, "tieba")
    assert 0 < len(after) < len(before) and all(p.exists() for p in after)
    # a post edited by hand is never silently overwritten
    after[0].write_text("我改过这一帖", encoding="utf-8")
    res = CliRunner().invoke(app, ["export", str(out), "--forum", "tieba"])
    assert res.exit_code == 1 and "被手工改过" in res.output
    assert after[0].read_text(encoding="utf-8") == "我改过这一帖"


def test_bad_profile_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "mine.yaml"
    bad.write_text("name: mine\nformat: bbcode\nextension: .txt\nlimit: 100\ncount: bytes\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"mine.yaml:5:8: count: 应为以下之一：chars、utf8、gbk"):
        load_profile(str(bad))
    res = CliRunner().invoke(app, ["export", str(tmp_path), "--forum", str(bad)])
    assert res.exit_code == 1 and "mine.yaml:5:8" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(app, ["export", str(tmp_path), "--forum", "weibo"])
    assert res.exit_code == 1 and "没有名为 'weibo' 的论坛配置" in res.output


# ---------------------------------------------------------------------------------------------
# the splitter on pinned inputs

TIEBA = load_profile("tieba")
NGA = load_profile("nga")


def test_big_table_is_split_by_rows_with_its_header() -> None:
    rows = "".join(f"| {i} | 球队{i:02d} | {i * 3} |\n" for i in range(1, 25))
    blocks = parse("| 名次 | 球队 | 分 |\n|---:|---|---:|\n" + rows)
    posts = pack(blocks, NGA, budget=300)
    assert len(posts) > 2
    tables = [b for post in posts for b in post]
    assert all(isinstance(t, Table) and [c.source for c in t.header] == ["名次", "球队", "分"] for t in tables)
    assert [r[0].source for t in tables for r in t.rows] == [str(i) for i in range(1, 25)]
    assert all(NGA.size(render(post, NGA)) <= 300 for post in posts)


def test_a_fold_too_big_continues_under_its_title() -> None:
    body = "\n\n".join(f"第{i}颗「1D100＝{i}」。" for i in range(1, 40))
    posts = pack(parse(f"::: fold 逐切片骰子\n\n{body}\n:::\n"), NGA, budget=200)
    folds = [b for post in posts for b in post]
    assert all(isinstance(f, Fold) for f in folds) and len(folds) > 1
    assert [f.title for f in folds] == ["逐切片骰子"] + ["逐切片骰子" + CONTINUED] * (len(folds) - 1)
    assert all(NGA.size(render([f], NGA)) <= 200 for f in folds)


def test_posts_break_before_a_heading() -> None:
    text = "## 甲\n\n" + "一二三四五。" * 7 + "\n\n## 乙\n\n" + "六七八九十。" * 2 + "\n\n" + "尾。" * 30 + "\n"
    posts = pack(parse(text), TIEBA, budget=80)
    assert isinstance(posts[1][0], Heading)


def test_a_single_line_too_long_is_an_error() -> None:
    with pytest.raises(TooLarge):
        pack(parse("「1D100＝57」" + "长" * 200 + "\n"), TIEBA, budget=50)


def test_vote_ends_the_chapter() -> None:
    text = "# 第一赛季 · 第一月　开幕\n\n::: vote\n\n## 下月安价\n\n- A\n:::\n\n" + "正文。" * 40 + "\n"
    posts = chapter_posts(parse(text), TIEBA, "第一赛季 · 第一月")
    assert "下月安价" in posts[-1] and posts[-1].rstrip().endswith("· A")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.just("p"), st.lists(st.text("甲乙丙「1D6＝3」 ", min_size=1, max_size=30), min_size=1, max_size=6)),
    st.tuples(st.just("t"), st.lists(st.text("丁戊12", min_size=1, max_size=8), min_size=1, max_size=12)),
    st.tuples(st.just("h"), st.lists(st.text("标题", min_size=1, max_size=5), min_size=1, max_size=1)),
), min_size=1, max_size=12), st.integers(min_value=120, max_value=600), st.sampled_from(["nga", "tieba", "discuz"]))
def test_packing_keeps_every_line_in_order_and_under_the_limit(parts: list[tuple[str, list[str]]], budget: int,
                                                               name: str) -> None:
    p = load_profile(name)
    md = []
    for kind, items in parts:
        items = [i.strip() or "空" for i in items]
        if kind == "p":
            md.append("\n".join(items))
        elif kind == "t":
            md.append("| 列 |\n|---|\n" + "".join(f"| {i} |\n" for i in items))
        else:
            md.append("## " + items[0])
    blocks = parse("\n\n".join(md) + "\n")
    posts = pack(blocks, p, budget)
    assert all(p.size(render(post, p)) <= budget for post in posts)

    def lines(bs: list) -> list[str]:  # noqa: ANN001
        out: list[str] = []
        for b in bs:
            if isinstance(b, Para):
                out += [line.source for line in b.lines]
            elif isinstance(b, Table):
                out += [r[0].source for r in b.rows]
            elif isinstance(b, Heading):
                out.append(b.text.source)
        return out
    assert lines([b for post in posts for b in post]) == lines(blocks)


def test_nested_folds_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "s01").mkdir(parents=True)
    (out / "s01" / "m01.md").write_text("# 第一月\n\n::: fold 外\n\n::: fold 内\n\n字\n:::\n:::\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["export", str(out), "--forum", "nga"])
    assert res.exit_code == 1 and "s01/m01.md: 第 3 行：折叠块里又有折叠块" in res.output


def test_vote_block_kind() -> None:
    assert isinstance(parse("::: vote\n\n投票\n:::\n")[0], Vote)
    inner = parse(":::: vote\n\n投票\n\n::: fold 名单\n\n甲\n:::\n\n请投票！\n\n::::\n")
    assert len(inner) == 1 and isinstance(inner[0], Vote)
    assert [type(b).__name__ for b in inner[0].blocks] == ["Para", "Fold", "Para"]


def test_a_stray_marker_is_refused() -> None:
    from anko_writer.export.doc import MarkupError
    with pytest.raises(MarkupError, match="第 9 行：折叠或投票标记没有对应的开头或结尾"):
        parse("::: vote\n\n投票\n\n::: fold 名单\n\n甲\n:::\n:::\n")


def test_export_files_without_chapters(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="没有可导出的章节"):
        export_files(tmp_path, NGA)


def test_html_inlines_the_pictures_beside_a_chapter(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "g01").mkdir(parents=True)
    (out / "g01" / "t01.md").write_text("# 第一局 · 第一轮\n\n![棋盘](t01.svg)\n\n![外面](../../x.svg)\n", encoding="utf-8")
    (out / "g01" / "t01.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    (tmp_path / "x.svg").write_text("<svg/>", encoding="utf-8")
    assert CliRunner().invoke(app, ["export", str(out), "--forum", "html"]).exit_code == 0
    page = (out / "export" / "html" / "g01.html").read_text(encoding="utf-8")
    assert page.count("data:image/svg+xml;base64,") == 1  # a link out of OUT is never read
    assert 'src="../../x.svg"' in page


def test_prose_check_reads_link_text_not_targets() -> None:
    from anko_writer.render import find_problems
    assert find_problems("![第一轮之后的棋盘](t01.svg)") == []
    assert find_problems("![board](t01.svg)") != []


# ---------------------------------------------------------------------------------------------
# issue 22: links, limits, templates and markup injection

EVIL = "[collapse=x][url=javascript:alert(1)]雷希特竞技"
CHAPTER = ("# 第一月　测试\n\n"
           f"{EVIL} 对 <script>alert(1)</script> 穆西卡乐团\n\n"
           f"::: fold 逐切片骰子：联赛第1轮 {EVIL} <b>粗</b>\n\n"
           "骰子「1D6＝3」\n:::\n")


def _chapters(out: Path, text: str = CHAPTER) -> Path:
    (out / "s01").mkdir(parents=True)
    (out / "s01" / "m01.md").write_text(text, encoding="utf-8")
    return out


def _export(out: Path, forum: str) -> tuple[int, str, str]:
    """Export ``out`` for ``forum``: exit status, output, and every post's text joined."""
    res = CliRunner().invoke(app, ["export", str(out), "--forum", forum])
    folder = out / "export" / Path(forum).stem if forum.endswith(".yaml") else out / "export" / forum
    posts = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*"))
                      if p.is_file() and p.name != INDEX) if folder.is_dir() else ""
    return res.exit_code, res.output, posts


@pytest.mark.parametrize("forum", ["nga", "discuz"])
def test_bbcode_shows_a_names_brackets_as_text(tmp_path: Path, forum: str) -> None:
    code, output, posts = _export(_chapters(tmp_path / "out"), forum)
    assert code == 0, output
    assert "[url=" not in posts and "[collapse=x" not in posts
    assert "［collapse=x］［url=javascript:alert(1)］雷希特竞技" in posts
    opened = [m.group(2) for m in BB_TAG.finditer(posts) if not m.group(1)]
    assert "url" not in opened and opened.count("collapse") == (1 if forum == "nga" else 0)
    if forum == "nga":
        assert "[collapse=逐切片骰子：联赛第1轮 ［collapse=x］［url=javascript:alert(1)］雷希特竞技 <b>粗</b>]骰子" in posts


def test_tieba_text_keeps_the_name_as_typed(tmp_path: Path) -> None:
    code, output, posts = _export(_chapters(tmp_path / "out"), "tieba")
    assert code == 0, output
    assert EVIL in posts  # plain text: nothing there is markup
    assert not any(line.startswith((":::", "〔")) for line in posts.splitlines())


def test_markdown_escapes_a_fold_title_inside_its_summary(tmp_path: Path) -> None:
    code, output, posts = _export(_chapters(tmp_path / "out"), "markdown")
    assert code == 0, output
    assert "<summary>逐切片骰子：联赛第1轮 " + EVIL + " &lt;b&gt;粗&lt;/b&gt;</summary>" in posts
    assert "<b>" not in posts.split("<summary>")[1].split("</summary>")[0]


def test_html_escapes_names_and_titles(tmp_path: Path) -> None:
    code, output, posts = _export(_chapters(tmp_path / "out"), "html")
    assert code == 0, output
    page = posts.split("<body>")[1]
    assert "<script>alert" not in page and "<b>粗" not in page
    assert "<summary>逐切片骰子：联赛第1轮 " + EVIL + " &lt;b&gt;粗&lt;/b&gt;</summary>" in page


def test_seal_lines_stay_byte_identical_when_brackets_are_escaped() -> None:
    seal = "〔封存｜编号 s1/x[1]#1｜D100＝？？？｜承诺 " + "0" * 64 + "〕"
    out = chapter_posts(parse(f"[b]{seal}[/b]\n"), NGA, "第一月")
    assert out == [f"［b］{seal}［/b］\n"]


def test_a_link_target_cannot_close_the_url_tag() -> None:
    out = chapter_posts(parse("[看这里](https://example.org/a]b[c)\n"), NGA, "第一月")
    assert out == ["[url=https://example.org/a%5Db%5Bc]看这里[/url]\n"]


def test_a_chapter_linked_out_of_out_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:机密的主机文件\n", encoding="utf-8")
    out = _chapters(tmp_path / "out")
    (out / "s01" / "m02.md").symlink_to(secret)
    code, output, posts = _export(out, "nga")
    assert code == 1 and "机密" not in output and "Traceback" not in output
    assert output == f"错误：{out / 's01' / 'm02.md'}: 是指向 {out} 之外的链接，没有读取\n"
    assert not (out / "export").exists()
    res = CliRunner().invoke(app, ["verify", str(out)])
    assert res.exit_code == 1 and "机密" not in res.output and "之外的链接" in res.output


def test_an_arc_folder_linked_out_of_out_is_never_read(tmp_path: Path) -> None:
    elsewhere = _chapters(tmp_path / "elsewhere")
    out = tmp_path / "out"
    out.mkdir()
    (out / "s01").symlink_to(elsewhere / "s01")
    code, output, _ = _export(out, "tieba")
    assert code == 1 and "之外的链接" in output and "雷希特" not in output


def test_a_profile_linked_out_of_its_folder_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret" / "passwd.yaml"
    secret.parent.mkdir()
    secret.write_text("sshd: x:0:0:机密\n", encoding="utf-8")
    (tmp_path / "mine").mkdir()
    link = tmp_path / "mine" / "forum.yaml"
    link.symlink_to(secret)
    out = _chapters(tmp_path / "out")
    code, output, _ = _export(out, str(link))
    assert code == 1 and "机密" not in output and "sshd" not in output
    assert output == f"错误：{link}: 是指向 {link.parent} 之外的链接，没有读取\n"


def _profile(tmp_path: Path, **changes: str) -> Path:
    """A copy of the NGA profile with ``key: value`` lines replaced (``tags.fold`` for a tag)."""
    text = Path(load_profile("nga").source).read_text(encoding="utf-8")
    for key, value in changes.items():
        name = key.removeprefix("tags.")
        indent = "  " if key.startswith("tags.") else ""
        text = re.sub(rf"^{indent}{name}: .*$", f"{indent}{name}: {value}", text, count=1, flags=re.M)
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _at(path: Path, prefix: str) -> str:
    """``path:line:col`` of the value on the line starting with ``prefix``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, x in enumerate(lines, 1) if x.startswith(prefix))
    return f"{path}:{line}:{len(prefix) + 1}"


def test_a_limit_smaller_than_the_header_is_a_located_error(tmp_path: Path) -> None:
    mine = _profile(tmp_path, limit="10")
    out = _chapters(tmp_path / "out", "# 第一月　测试\n\n" + "很长的一段话。" * 3000 + "\n")
    code, output, posts = _export(out, str(mine))
    assert code == 1 and posts == ""
    assert output == (f"错误：{_at(mine, 'limit: ')}: limit: 10 放下帖子开头后就没有正文的位置了"
                      "（单是 '[color=gray]第一月（99/99）[/color]' 就有 32）；请调大，或设为 0 表示不限\n")


@pytest.mark.parametrize("template", ["'[collapse={title.__class__}]{}[/collapse]'",
                                      "'[collapse={title.__class__.__mro__[1].__subclasses__}]{}'",
                                      "'[collapse={title[0]}]{}'", "'[collapse={0}]{}'", "'{title!r}{}'",
                                      "'{n:>{title}}{}'"])
def test_a_template_reaching_into_a_field_is_refused_at_load(tmp_path: Path, template: str) -> None:
    mine = _profile(tmp_path, **{"tags.fold": template})
    with pytest.raises(ProfileError) as err:
        load_profile(str(mine))
    assert str(err.value).startswith(f"{_at(mine, '  fold: ')}: tags.fold: 模板 ")
    assert "不是简单的字段名" in str(err.value) and "<class" not in str(err.value)


def test_templates_are_filled_without_str_format() -> None:
    nga = load_profile("nga")
    assert nga.tag("fold", "内容", title="{title.__class__}") == "[collapse={title.__class__}]内容[/collapse]"
    assert nga.tag("appendix_ref", "", title="甲", n=2) == "[color=gray]（甲：见附录 2）[/color]"
