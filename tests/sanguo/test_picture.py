"""The readers' view of the 三国 map (design §1.8): the pinned text boards, the legend, the SVG's pieces and
escaping, and invariants over random boards."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.kit.grid import LETTERS
from anko_writer.rulesets.sanguo import picture
from anko_writer.rulesets.sanguo.picture import CELL, diagram, legend, read, svg

NS = "{http://www.w3.org/2000/svg}"


def small(*, destroyed: bool = False, forest: bool = False, fog: tuple[str, ...] = ("D3",)) -> dict[str, Any]:
    """A 4×3 board: a 3×3 city on A1–C3 with its gate on B3 (防 8), a camp on D1, ours A1 inside the city,
    the enemy b1 on D2; every square seen but ``fog``."""
    names = [f"{c}{r}" for r in (1, 2, 3) for c in "ABCD"]
    return {"map": {"cols": 4, "rows": 3, "terrain": ["....", "....", "...f" if forest else "...."],
                    "legend": {".": "plain", "f": "forest", "^": "high", "M": "mountain", "~": "water", "=": "road"}},
            "strongholds": [{"id": "长社", "kind": "city", "level": 4, "side": "汉军",
                             "squares": [n for n in names if n[0] != "D"],
                             "gates": [{"id": "长社南门", "square": "B3", "defence": 8, "destroyed": destroyed}]},
                            {"id": "黄巾营", "kind": "camp", "level": 1, "side": "黄巾", "squares": ["D1"]}],
            "seen": [n for n in names if n not in fog],
            "units": [{"id": "汉1", "label": "A1", "ours": True, "type": "骑兵", "square": "B2", "主将": "皇甫嵩",
                       "兵力": 8, "行动力": 6, "资源": 12, "hidden": False, "legion": None},
                      {"id": "黄1", "label": "b1", "ours": False, "type": "步兵", "square": "D2", "主将": "波才",
                       "兵力": 7, "hidden": False, "legion": None}]}


def grid_lines(text: str) -> list[str]:
    """The board's lines without the legend."""
    return text.split("\n")[:-1]


def cells(text: str) -> list[list[str]]:
    """Each row's cells (three characters each after the row number, stripped)."""
    return [[line[i:i + 3].strip() for i in range(2, len(line), 3)] for line in grid_lines(text)[1:]]


def test_pinned_board() -> None:
    """§1.8: walls, a standing gate, a camp, a fogged plain, ours upper case and the enemy lower case; the
    legend names only what shows (the city's one plain square is under A1, so no ``.``)."""
    assert diagram(small()) == "\n".join([
        "    A  B  C  D",
        " 1  #  #  #  @",
        " 2  # A1  # b1",
        " 3  #  +  #  :",
        "图例：# 城墙，+ 城门（B3 防8），@ 营寨，: 视野外",
    ])


def test_pinned_board_destroyed_gate_and_fogged_symbols() -> None:
    """A destroyed gate prints ``x``; out of sight a symbol other than plain is preceded by ``:`` and the
    legend gives the first such cell as its example."""
    assert diagram(small(destroyed=True, forest=True, fog=("D1", "D3"))) == "\n".join([
        "    A  B  C  D",
        " 1  #  #  # :@",
        " 2  # A1  # b1",
        " 3  #  x  # :f",
        "图例：# 城墙，x 城门已毁，@ 营寨，f 树林，: 视野外（:@ 即视野外的营寨）",
    ])


def test_grid_lines_are_ascii_and_of_one_width() -> None:
    """Every grid line is ASCII and 2 + 3·cols wide (cells of 3), ending on a symbol so that stripping
    trailing blanks keeps the width."""
    for view in (small(), small(destroyed=True, forest=True, fog=("A1", "D1", "D3"))):
        lines = grid_lines(diagram(view))
        assert all(line.isascii() for line in lines)
        assert {len(line) for line in lines} == {2 + 3 * 4}
        assert all(line == line.rstrip() for line in lines)


def test_legend_lists_only_present_symbols_with_full_width_punctuation() -> None:
    """A board of plain and water with nothing on it: the legend names exactly those two."""
    view = {"map": {"cols": 3, "rows": 1, "terrain": [".~."]}, "strongholds": [], "seen": ["A1", "B1", "C1"],
            "units": []}
    assert diagram(view).split("\n")[-1] == "图例：. 平地，~ 河"
    assert diagram(small()).split("\n")[-1].count(",") == 0


def test_terrain_prints_the_default_characters_whatever_the_scene_legend() -> None:
    """A scene may spell its terrain with other characters; the board always prints f for forest."""
    view = {"map": {"cols": 2, "rows": 1, "terrain": ["TR"], "legend": {"T": "forest", "R": "road"}},
            "seen": ["A1", "B1"], "units": []}
    assert diagram(view).split("\n")[1:] == [" 1  f  =", "图例：f 树林，= 大路"]


def test_largest_board_and_no_units() -> None:
    """26 columns × 26 rows, no unit, nothing seen: a header to Z, 26 rows, two-digit row numbers."""
    view = {"map": {"cols": 26, "rows": 26, "terrain": ["." * 26] * 26}, "seen": [], "units": []}
    text = diagram(view)
    lines = grid_lines(text)
    assert len(lines) == 27 and lines[0].endswith("Y  Z") and lines[-1].startswith("26  :")
    assert {len(line) for line in lines} == {2 + 3 * 26}
    assert text.split("\n")[-1] == "图例：: 视野外"
    root = ET.fromstring(svg(view, "空"))
    assert len(root.findall(f".//{NS}circle")) == 0
    assert len(root.findall(f".//{NS}rect[@class='fog']")) == 26 * 26


@pytest.mark.parametrize(("change", "error"), [
    (lambda v: v["units"][0].update(label="a1"), "upper-case"),
    (lambda v: v["units"][1].update(label="B1"), "lower-case"),
    (lambda v: v["units"][1].update(square="B2"), "one square"),
    (lambda v: v["strongholds"][0]["squares"].pop(), "square block"),
    (lambda v: v.update(seen=["E1"]), "no such square"),
])
def test_bad_views_are_refused(change: Any, error: str) -> None:
    """A view that cannot be drawn faithfully is refused with a ValueError naming the fault."""
    view = small()
    change(view)
    with pytest.raises(ValueError, match=error):
        diagram(view)


def test_duplicate_labels_are_refused() -> None:
    """Two units with one label would be two units under one name."""
    view = small()
    view["units"][1].update(label="a1")
    view["units"].append({**view["units"][1], "square": "D3"})
    with pytest.raises(ValueError, match="labelled a1"):
        diagram(view)


def test_svg_pieces() -> None:
    """The picture parses, its title is the given one, one disc per unit in its side's colour, one fog
    square per unseen square, the stronghold outlined and its walls, gate and camp drawn."""
    view = small(fog=("D3", "A1"))
    root = ET.fromstring(svg(view, "长社之战 第1日"))
    assert root.findtext(f"{NS}title") == "长社之战 第1日"
    circles = root.findall(f".//{NS}circle")
    assert [c.get("fill") for c in circles] == ["#1f4e8c", "#c0392b"]
    assert len(root.findall(f".//{NS}rect[@class='fog']")) == 2
    assert len(root.findall(f".//{NS}rect[@class='wall']")) == 8  # 7 walls, and the wall behind the gate's door
    assert len(root.findall(f".//{NS}rect[@class='gate']")) == 1
    assert len(root.findall(f".//{NS}rect[@class='camp']")) == 1
    assert len(root.findall(f".//{NS}rect[@class='stronghold']")) == 2
    fog = root.find(f".//{NS}rect[@class='fog']")
    assert fog is not None and (fog.get("x"), fog.get("y"), fog.get("width")) == (str(CELL), "0", str(CELL))


def test_svg_escapes_names_and_is_deterministic() -> None:
    """Markup in a 主将, a stronghold's name and the title is escaped; equal views give equal bytes."""
    view = small(destroyed=True)
    view["units"][0]["主将"] = "皇甫<b>嵩</b>&"
    view["strongholds"][0]["id"] = '长"社<'
    text = svg(view, "<title>&")
    assert "<b>" not in text and "&lt;b&gt;" in text and '长&quot;社&lt;' in text
    root = ET.fromstring(text)
    tips = [g.findtext(f"{NS}title") for g in root.iter(f"{NS}g")]
    assert tips[0] == "A1 皇甫<b>嵩</b>& 骑兵 兵8 行6 资12"
    assert root.findtext(f"{NS}title") == "<title>&"
    assert svg(copy.deepcopy(view), "<title>&").encode() == text.encode()


def test_svg_legend_strip_names_what_shows() -> None:
    """The legend strip under the board names, in Chinese, each kind of thing on this picture."""
    root = ET.fromstring(svg(small(destroyed=True), "t"))
    words = [t.text for t in root.findall(f"{NS}text")]
    assert words == ["平地", "城墙", "城门已毁", "营寨", "视野外", "我军", "敌军"]


TERRAIN = ".f^M~="
"""The terrain characters a random board is spelt with."""


@st.composite
def views(draw: st.DrawFn) -> dict[str, Any]:
    """A random board (1–26 × 1–26), maybe one city with a gate, a random sight and up to 8 units on
    distinct squares. A row's terrain is one draw of bytes (a byte's remainder by 6 its square's character), the
    sight one draw of bytes (a bit a square), and the units' squares are drawn one by one: the same boards,
    sights and squares as drawing every square's character and sight and permuting every square, which was
    three quarters of these tests' time (Hypothesis's own drawing)."""
    cols, rows = draw(st.integers(1, 26)), draw(st.integers(1, 26))
    names = [f"{LETTERS[i]}{r}" for r in range(1, rows + 1) for i in range(cols)]
    terrain = ["".join(TERRAIN[b % len(TERRAIN)] for b in draw(st.binary(min_size=cols, max_size=cols)))
               for _ in range(rows)]
    strongholds = []
    if cols >= 3 and rows >= 3 and draw(st.booleans()):
        x, y = draw(st.integers(0, cols - 3)), draw(st.integers(1, rows - 2))
        squares = [f"{LETTERS[x + i]}{y + j}" for j in range(3) for i in range(3)]
        strongholds.append({"id": "城<&>", "kind": "city", "level": 2, "side": None, "squares": squares,
                            "gates": [{"id": "门", "square": squares[1], "defence": 5, "destroyed": draw(st.booleans())}]})
    sight = draw(st.binary(min_size=(len(names) + 7) // 8, max_size=(len(names) + 7) // 8))
    seen = [n for k, n in enumerate(names) if sight[k // 8] >> k % 8 & 1]
    count = draw(st.integers(0, min(8, len(names))))
    where = draw(st.lists(st.sampled_from(names), min_size=count, max_size=count, unique=True))
    units = []
    for k, sq in enumerate(where):
        ours = draw(st.booleans())
        letter = draw(st.sampled_from(LETTERS))
        units.append({"id": f"u{k}", "label": f"{letter if ours else letter.lower()}{k + 1}", "ours": ours,
                      "type": "步兵", "square": sq, "主将": "<b>将</b>", "兵力": 5, "hidden": False, "legion": None})
    return {"map": {"cols": cols, "rows": rows, "terrain": terrain}, "strongholds": strongholds, "seen": seen,
            "units": units}


@settings(max_examples=60)
@given(views())
def test_random_views(view: dict[str, Any]) -> None:
    """Any view: rows + 1 grid lines and the legend, grid lines ASCII and of one width, each unit's label
    exactly once and on its square; the SVG parses with one disc per unit and one veil per unseen square."""
    text = diagram(view)
    rows, cols = view["map"]["rows"], view["map"]["cols"]
    lines = text.split("\n")
    assert len(lines) == rows + 2 and lines[-1].startswith("图例：")
    assert all(line.isascii() and len(line) == 2 + 3 * cols for line in lines[:-1])
    grid = cells(text)
    flat = [c for row in grid for c in row]
    for u in view["units"]:
        assert flat.count(u["label"]) == 1
        col, row = LETTERS.index(u["square"][0]), int(u["square"][1:])
        assert grid[row - 1][col] == u["label"]
    root = ET.fromstring(svg(view, "图"))
    assert len(root.findall(f".//{NS}circle")) == len(view["units"])
    assert len(root.findall(f".//{NS}rect[@class='fog']")) == cols * rows - len(view["seen"])


@settings(max_examples=40)
@given(views())
def test_diagram_legend_is_the_legend_worked_out_alone(view: dict[str, Any]) -> None:
    """The diagram hands its cells to the legend (worked out once): the line is the one ``legend`` works out alone."""
    assert diagram(view).rsplit("\n", 1)[1] == legend(read(view))


def _plain(view: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The view's board and picture drawn without the board memo (every square worked out from the board)."""
    with monkeypatch.context() as m:
        m.setattr(picture, "_board_key", lambda *a: None)
        return diagram(view), svg(view, "第1节 <第2回合>")


@settings(max_examples=60, deadline=None)
@given(views(), st.booleans())
def test_a_remembered_board_draws_what_a_fresh_one_draws(view: dict[str, Any], destroyed: bool) -> None:
    """The memo of boards read before (issue 29) draws the same text board and picture, for a board met
    before, one whose gate fell since, and a fresh one."""
    mp = pytest.MonkeyPatch()
    try:
        picture._BOARDS.clear()
        for v in (view, copy.deepcopy(view), small(destroyed=destroyed), small(destroyed=not destroyed), view):
            first = diagram(v), svg(v, "第1节 <第2回合>")
            again = diagram(v), svg(v, "第1节 <第2回合>")
            assert first == again == _plain(v, mp)
        assert picture._BOARDS
    finally:
        mp.undo()
