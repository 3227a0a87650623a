"""The tally's output: the count as a table per question, the lists, the rules and the result (issue 16).

Written in Chinese, so a host can paste it into the thread as the 计票结果.
"""

from __future__ import annotations

import datetime
import re
import unicodedata

from ..ballot import Question
from . import ngadice
from .count import ASIDE, RULES, Cast, Count, Result, shown
from .replies import Reply

ZEROS_SHOWN = 6
"""A question with at most this many answers lists those no one chose too (the formations); a longer
list (the owner's actions) only those chosen."""
VOTERS_SHOWN = 12
"""How many voters a table cell names before it says ``等 N 人``."""


_INVISIBLE = re.compile("[\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
"""Characters that reorder or hide text (bidi controls and isolates, zero-width marks, line separators)."""


def _escape(ch: str) -> str:
    """A control or invisible character as the output shows it: ``<U+202E>``."""
    return f"<U+{ord(ch):04X}>"


def safe(text: str) -> str:
    """Reader-written ``text`` as the output may print it: control characters (C0, DEL, C1) and the
    characters that reorder or hide text (U+202A–U+202E, U+2066–U+2069 …) shown as ``<U+XXXX>``, never
    raw; a tab or line break as a space.

    >>> safe("小\u202e明\x1b[31m")
    '小<U+202E>明<U+001B>[31m'
    """
    out = []
    for ch in text:
        if ch in "\t\n\r":
            out.append(" ")
        elif unicodedata.category(ch) == "Cc" or _INVISIBLE.match(ch):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def _cell(text: str) -> str:
    """``text`` safe in a Markdown table cell."""
    return safe(text).replace("|", "｜")


def _voters(names: tuple[str, ...]) -> str:
    """The voters of a row, at most :data:`VOTERS_SHOWN` by name."""
    if len(names) <= VOTERS_SHOWN:
        return "、".join(map(safe, names))
    return "、".join(map(safe, names[:VOTERS_SHOWN])) + f" 等 {len(names)} 人"


def _time(t: datetime.datetime | None) -> str:
    """A reply's time as the output shows it."""
    return t.strftime("%Y-%m-%d %H:%M") if t is not None else "无时间"


def _line(cast: Cast) -> str:
    """A vote line as quoted in a list (its first 60 characters)."""
    return _short(f"【安价 {cast.vote_key}】" + " ".join(cast.vote.line.split()))


def _short(text: str) -> str:
    """A quoted line, safe, at most 60 characters."""
    text = safe(" ".join(text.split()))
    return text if len(text) <= 60 else text[:59] + "…"


def _where(reply: Reply | None) -> str:
    """A reply's place as the output names it (safe)."""
    return safe(reply.where()) if reply is not None else "（不在任何一楼）"


def question_table(r: Result) -> list[str]:
    """One question's count: its rule, a row per answer (votes, voters) and its result."""
    q: Question = r.question
    out = [f"### {q.label}（{r.rule()}）", "", "| 选项 | 票数 | 投票人 |", "|---|---:|---|"]
    few = len(r.candidates) <= ZEROS_SHOWN and r.answered > 0
    for c in r.candidates:
        if not c.voters and not few:
            continue
        out.append(f"| {_cell(c.shown)} | {len(c.voters)} | {_cell(_voters(c.voters))} |")
    if not r.answered:
        out.append("| （无人投） | 0 | |")
    out += ["", f"结果：{r.how}", ""]
    return out


def dice_lines(checks: tuple[ngadice.Check, ...]) -> list[str]:
    """The readers' NGA ``[dice]`` rolls, recomputed: one line per post, the faked and typed ones first
    (nothing when the page is not a saved NGA page or holds no dice)."""
    if not checks:
        return []
    tally = {k: sum(c.status == k for c in checks) for k in ngadice.STATUS}
    summary = "，".join(f"{name} {tally[k]}" for k, name in ngadice.STATUS.items() if tally[k])
    order = ("bad", "typed", "unknown", "ok", "rolled")
    items = sorted(checks, key=lambda c: order.index(c.status))
    return [f"### 读者的 NGA 骰子：{len(checks)} 楼（{summary}）", "",
            "NGA 的 [dice] 由作者 uid、帖子 tid、回复 pid 三个编号决定，谁都能照着重算：「不符」是页面上的结果被改过，"
            "「手打」是没有骰子标签、自己写的结果。", ""] + [f"- {safe(ngadice.describe(c))}" for c in items] + [""]


def format_count(count: Count, source: str, layout: str, until: datetime.datetime | None) -> str:
    """The whole output: heading, tables, lists, rules and what would be written."""
    b = count.ballot
    deadline = f"截止 {until:%Y-%m-%d %H:%M}" if until is not None else "未给截止时间，每条回复都计"
    read = f"文件编码 {count.encoding}；" if count.encoding else ""
    host = (f"主持人 {'、'.join(map(safe, count.hosts))}（不计票）；" if count.hosts
            else "主持人：页面上没有第一楼，认不出（章节原文照样不计）；")
    out = [f"## 安价 {b.key} 计票", "",
           f"投票出自 {source}（帖中写的截止：{b.deadline or '未写'}）；{deadline}；版式 {layout}；{read}{host}"
           f"读到回复 {count.replies} 条，计票 {len(count.counted)} 人。", ""]
    for r in count.results:
        out += question_table(r)
    out += [f"### 计入的票：{len(count.counted)} 条", ""]
    if count.counted:
        out += ["| 楼层与读者 | 时间 | 票 |", "|---|---|---|"]
        out += [f"| {_cell(_where(c.reply))} | {_time(c.reply.time)} | {_cell(_short(c.vote.head or c.vote.line))} |"
                for c in count.counted]
    else:
        out.append("无")
    out.append("")
    lists: list[tuple[str, list[str]]] = []
    by_author = {c.reply.author: c for c in count.counted}

    def problems(*kinds: str) -> list[str]:
        return [f"{_where(p.reply)}：「{_short(p.item)}」{p.reason}" for p in count.problems if p.kind in kinds]

    lists.append(("截止后的票（不计）", [f"{_where(c.reply)} {_time(c.reply.time)}：{_line(c)}" for c in count.late]))
    lists.append(("没有时间的回复（给了截止时间，无法确认按时，不计）",
                  [f"{_where(c.reply)}：{_line(c)}" for c in count.undated]))
    lists.append(("被同一人后一票取代", [f"{_where(c.reply)}：{_line(c)}（以 {_where(by_author[c.reply.author].reply)} 为准）"
                                   for c in count.superseded]))
    lists.append(("没有的选项或名字（这一项不计）", problems("option")))
    lists.append(("格式认不出（这一项不计）", problems("format")))
    lists.append(("同一票里重复或矛盾的项（重复的只计一次；矛盾的这一项不计）", problems("repeat", "ambiguous")))
    lists.append(("一项也读不出的投票（不计，也不取代之前的票）", [f"{_where(c.reply)}：{_line(c)}" for c in count.unreadable]))
    lists.append(("投给别的安价（别的章节，不计）", [f"{_where(r)}：安价 {safe(key)}" for r, key in count.other_keys]))
    lists.append(("不是读者的票（主持人、章节原文、引用、页面文字，不计）",
                  [f"{_where(a.reply)}：{_short(a.line)}（{ASIDE[a.kind]}）" for a in count.set_aside
                   if a.kind != "loose"]))
    lists.append(("没写【安价】开头的票（不计，供主持人参考）",
                  [f"{_where(a.reply)}：{_short(a.line)}" for a in count.set_aside if a.kind == "loose"]))
    for title, items in lists:
        out.append(f"### {title}：{len(items)} 条" if items else f"### {title}：无")
        if items:
            out += [""] + [f"- {x}" for x in items]
        out.append("")
    out += dice_lines(count.dice)
    out += ["### 计票规则", ""] + [f"- {x}" for x in RULES] + [""]
    out += ["### 写入战役文件", ""]
    for r in count.results:
        where = ".".join(str(p) for p in (*b.root, *r.question.path))
        if r.decided:
            out.append(f"- {where} = {safe(shown(r.question, r.value))}")
        else:
            out.append(f"- {where}：不写入（{r.how}）")
    return "\n".join(out).rstrip() + "\n"


def _csv_cell(text: str) -> str:
    """A CSV field: quoted when it holds a comma, a quote or a line break; a leading =, +, - or @ neutralised so
    a spreadsheet never reads a reader's text as a formula."""
    text = safe(text)
    if text[:1] in ("=", "+", "-", "@"):
        text = "'" + text
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if any(c in text for c in ',"\n') else text


def voters_csv(count: Count) -> str:
    """The host's list of voters (UTF-8 with a BOM, so a spreadsheet reads the Chinese): one row per vote line read
    — floor, reader, time, whether it counted (and why not), and the reader's answer to each question."""
    labels = [r.question.label for r in count.results]
    rows = [["楼层", "读者", "时间", "计入", *labels]]

    def row(cast: Cast, status: str) -> list[str]:
        answers = {a.label: a.text for a in cast.vote.answers}
        return [cast.reply.floor or f"第{cast.reply.index}条", cast.reply.author, _time(cast.reply.time), status,
                *(answers.get(q, "") for q in labels)]

    rows += [row(c, "计入") for c in count.counted]
    rows += [row(c, "被后一票取代") for c in count.superseded]
    rows += [row(c, "截止后") for c in count.late]
    rows += [row(c, "没有时间") for c in count.undated]
    rows += [row(c, "读不出") for c in count.unreadable]
    return "\ufeff" + "".join(",".join(_csv_cell(x) for x in r) + "\r\n" for r in rows)


__all__ = ["VOTERS_SHOWN", "ZEROS_SHOWN", "dice_lines", "format_count", "question_table", "safe", "voters_csv"]
