"""``anko-writer new --ruleset ball``: a commented campaign file and chapter 0 (the standard formation, the
notation, how to vote; the AI's opening turn when the readers play ATK)."""

from __future__ import annotations

from collections.abc import Mapping

from ....ballot import DEADLINE
from ....chapters import Chapter
from ....errors import AnkoError
from ....statefile import document, field
from ..play import DEFAULT_STRENGTH, STRENGTHS, TURN_LIMIT, Game, Setup, game_facts, opening

FILENAME = "ball.yaml"
"""The campaign file ``new`` writes."""
SWITCH = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}
"""The words ``--option cards=…`` accepts."""


def new_campaign(options: Mapping[str, str], seed: int, game: Game) -> tuple[str, Chapter]:
    """The campaign text and chapter 0 for ``options`` (``side``, ``cards``, ``title``)."""
    side = options.get("side", "ATK").strip().upper()
    if side not in ("ATK", "DEF"):
        raise AnkoError(f"--option side: 应为 ATK 或 DEF，实际是 {options.get('side')!r}")
    cards_word = options.get("cards", "off").strip().lower()
    if cards_word not in SWITCH:
        raise AnkoError(f"--option cards: 应为 on 或 off，实际是 {options.get('cards')!r}")
    cards = SWITCH[cards_word]
    title = options.get("title") or f"BALL 安科：读者执 {side}"
    word = options.get("ai_strength", str(DEFAULT_STRENGTH)).strip()
    if word not in {str(s) for s in STRENGTHS}:
        raise AnkoError(f"--option ai_strength: 应为以下之一：{'、'.join(map(str, STRENGTHS))}，实际是 "
                        f"{options.get('ai_strength')!r}")
    strength = int(word)
    text = document([
        "# BALL（003）安科战役：读者执一方，与 AI 对弈。没有骰子，每一步都由读者投票决定。",
        "ruleset: ball",
        field("title", title, style="json"),
        "# 种子：核心要求每个战役都有种子；BALL 不掷骰，这个数字不影响任何结果（仍请保密）。",
        field("seed", seed),
        field("side", side, note="读者执哪一方：ATK（开局持球）或 DEF（先手）；另一方由 AI 执掌", gap=10),
        "options:",
        field("cards", cards, 1, note="卡牌模式（PE）：true 开，false 关", gap=5),
        field("turn_limit", TURN_LIMIT, 1, gap=3,
              note=f"回合上限（双方回合合计，至多 {TURN_LIMIT}）；到时无人达阵，DEF 防守成功获胜"),
        field("ai_strength", strength, 1, gap=4,
              note="AI 的强度：1 只看本回合；2 再看读者最好的应对（默认）；3 多看一回合（较慢）"),
        "  games: 1         # 本战役共几局，每局从标准阵型重新开始",
        field("vote_deadline", DEADLINE, 1, note="安价的截止时间，写进每章的安价块（例：发帖后 48 小时）", gap=3),
        "# 读者投票：键为 g<局>t<轮>，值为这一轮我方按顺序执行的行动（写法见序章与开帖），例如：",
        '#   g1t1: ["X3 E5-G7", "O1 阻挡 F8"]',
        "#   g1t2:",
        '#     actions: ["X5 F6-G7"]',
        '#     recovery: ["扶起 X2 D4"]     # 恢复阶段的选择（可省略，省略的由 AI 代选）',
        "# 没有投票的一轮由 AI 代我方行动，章节里会写明。读者回帖的安价行（【安价 g1t1】行动：…）由 anko-writer tally",
        "# 计票后写在这里。",
        "moves: {}",
    ])
    setup = Setup(side, cards, strength=strength)  # type: ignore[arg-type]
    results = {"ruleset": "ball", "arc": 0, "part": 0, "title": title, "readers": side, "ai": setup.ai,
               "cards": cards, "turn_limit": TURN_LIMIT, **game_facts(), **opening(game, setup)}
    return text, Chapter(0, 0, results, "chapter0.md.j2")


__all__ = ["FILENAME", "new_campaign"]
