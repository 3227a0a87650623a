"""Builds ``nga-s1m3.txt`` (NGA desktop page, select all → copy) and ``nga-s1m3-gbk.html`` (the same page
saved as HTML, in GBK as NGA serves it) from one list of floors, so the two render the same thread.
Run from the repository root: ``python tests/data/replies/make_nga_month.py``. The hand count is pinned in
``tests/core/test_tally_forums.py``."""

from __future__ import annotations

import html
from pathlib import Path

HERE = Path(__file__).parent
TITLE = "[布拉斯群英杯] 哈洛温灯火的群英杯之路 第一赛季 · 第三月"
NAV = "NGA玩家社区 > 体育 > 足球"
CHAPTER = ("第一赛季 · 第三月\n……（正文从略）……\n第三月安价\n"
           "**怎么投**：截止 下一帖发出之前。每位读者一票，同一人投了几次以截止前的最后一次为准；"
           "截止后的票、格式认不出的票单独列出，不计入；引用别人的票不算自己的票。复制下面这行回复，改成你的选择，不想投的项整项删掉：\n"
           "【安价 s1m3】阵型：C；老板：放权；摊牌：否\n请投票！")
# (floor, author, level, prestige, posts, time, body); a body line "Q:NAME|TIME|TEXT" is a quote box,
# "R:NAME|TIME" NGA's 回复 line (no quoted text)
FLOORS = [
    (0, "哈洛温记者", "学徒", 3, 120, "2026-11-30 20:00", CHAPTER),
    (1, "老周", "新手上路", 0, 12, "2026-11-30 20:05", "【安价 s1m3】阵型：C；老板：私人注资；摊牌：否"),
    (2, "冰可乐", "新手上路", 0, 3, "2026-11-30 20:10",
     "Q:老周|2026-11-30 20:05|【安价 s1m3】阵型：C；老板：私人注资；摊牌：否\n楼上说得对，但我不投"),
    (3, "小红", "学徒", 0, 40, "2026-11-30 20:12", "R:老周|2026-11-30 20:05\n【安价 s1m3】阵型：B"),
    (4, "杠精本精", "新手上路", 0, 1, "2026-11-30 20:15", "【安价 s1m3】阵型：随便"),
    (5, "杠精本精", "新手上路", 0, 2, "2026-11-30 20:16", "【安价 s1m3】阵型：B；阵型：B；阵型：B；阵型：B；阵型：B"),
    (6, "霍比特人", "小有名气", 2, 310, "2026-11-30 20:20",
     "Q:小红|2026-11-30 20:12|【安价 s1m3】阵型：B\n缩什么缩，稳住！\n【安价 s1m3】阵型：c；老板：私人注资"),
    (7, "甲", "新手上路", 0, 8, "2026-11-30 20:25", "【安價 s1m3】陣型：C；老闆：放權；攤牌：否"),
    (8, "乙", "新手上路", 0, 9, "2026-11-30 20:26", "【安價 s1m3】陣形：4-3-3；老闆：追加轉會預算"),
    (9, "丙", "学徒", 0, 21, "2026-11-30 20:30", "【安价 s1m3】阵型C 老板私人注资"),
    (10, "丁", "学徒", 0, 22, "2026-11-30 20:31", "【安价　ｓ１ｍ３】阵型：Ｄ；摊牌：是"),
    (11, "戊", "学徒", 0, 23, "2026-11-30 20:33", "【安价 s1m3】阵型：D. 3 5 2 控球；老板：视察训练"),
    (12, "己", "学徒", 0, 24, "2026-11-30 20:35", "[安价 S1M3] 阵型: d ; 老板: 私人注资"),
    (13, "庚", "学徒", 0, 25, "2026-11-30 20:40", "【安价 s1m3】\n阵型：C\n老板：私人注资\n摊牌：否"),
    (14, "辛", "学徒", 0, 26, "2026-11-30 20:41", "【安价 s1m3】阵型：A；老板：放权"),
    (15, "壬", "学徒", 0, 27, "2026-11-30 20:42", "我投 D\n阵型：D"),
    (16, "癸", "学徒", 0, 28, "2026-11-30 20:45", "上一帖的票补一下 【安价 s1m2】阵型：C"),
    (17, "子", "学徒", 0, 29, "2026-11-30 20:50", "【安价 s1m3】阵型：B；阵型：C"),
    (18, "丑", "学徒", 0, 30, "2026-11-30 20:55", "【安价 s1m3】阵型：A；老板：私人住资"),
    (19, "寅", "学徒", 0, 31, "2026-11-30 21:00", "【安价 s1m3】阵型：C；摊牌：否"),
    (20, "卯", "学徒", 0, 32, "2026-11-30 21:05", "【安价 s1m3】阵型：D；老板：私人注资；摊牌：是"),
    (21, "辰", "学徒", 0, 33, "2026-11-30 21:10", "【安价 s1m3】阵型：C；老板：私人注资\n天天向上（签名）"),
    (22, "巳", "学徒", 0, 34, "2026-11-30 21:15", "【安价 s1m3】阵型：A. 4 4 2 平衡；摊牌：否"),
    (23, "哈洛温记者", "学徒", 3, 121, "2026-11-30 21:20", "感谢大家，截止前还能改票\n【安价 s1m3】阵型：C"),
    (24, "未", "学徒", 0, 35, "2026-11-30 21:30", "【安价 s1m3】阵型：D；老板：追加转会预算"),
    (25, "申", "学徒", 0, 36, "2026-11-30 21:40", "【安价 s1m3】阵型：C；老板：私人注资；摊牌：否"),
    (26, "老周", "新手上路", 0, 13, "2026-11-30 21:45", "改一下：【安价 s1m3】阵型：D；老板：私人注资"),
    (27, "迟到的人", "新手上路", 0, 1, "2026-12-01 20:30", "【安价 s1m3】阵型：A"),
    (28, "酉", "学徒", 0, 37, "2026-12-01 19:59", "【安价 s1m3】阵型：C；老板：放权；摊牌：是"),
]
PAGE_BREAK = 20
"""The second page starts at this floor: its chrome (pagination, title, nav) is pasted between floors."""


def _text_body(body: str) -> str:
    out = []
    for line in body.split("\n"):
        if line.startswith("Q:"):
            name, time, quoted = line[2:].split("|", 2)
            out += [f"Reply Post by {name} ({time}):", quoted]
        elif line.startswith("R:"):
            name, time = line[2:].split("|")
            out.append(f"Reply to Reply Post by {name} ({time})")
        else:
            out.append(line.replace("**", ""))
    return "\n".join(out)


def _html_body(body: str) -> str:
    out = []
    for line in body.split("\n"):
        if line.startswith("Q:"):
            name, time, quoted = line[2:].split("|", 2)
            out.append(f'<div class="quote"><a href="/read.php?pid=1">Reply</a> <b>Post by '
                       f'<a href="/nuke.php?uid=1">{name}</a> ({time}):</b><br/>{html.escape(quoted)}</div>')
        elif line.startswith("R:"):
            name, time = line[2:].split("|")
            out.append(f'<b>Reply to <a href="/read.php?pid=1">Reply</a> Post by <a href="/nuke.php?uid=1">{name}'
                       f'</a> ({time})</b><br/>')
        else:
            out.append(html.escape(line.replace("**", "")).replace("　", "&#12288;") + "<br/>")
    return "".join(out)


def text_page() -> str:
    top = [TITLE, NAV, "回复 | 只看楼主 | 收藏", "1 2 下一页", ""]
    out = list(top)
    for floor, author, level, prestige, posts, time, body in FLOORS:
        if floor == PAGE_BREAK:
            out += ["上一页 1 2", TITLE, NAV, "回复 | 只看楼主 | 收藏", ""]
        out += [author, f"级别: {level}", f"威望: {prestige}", f"发帖: {posts}", f"#{floor}", time,
                _text_body(body), "回复 引用 举报", ""]
    return "\n".join(out)


def html_page() -> str:
    rows = []
    for floor, author, level, prestige, posts, time, body in FLOORS:
        if floor == PAGE_BREAK:
            rows.append(f'<div id="pagebbtm"><a>上一页</a> <a>1</a> <a>2</a></div><h3 id="postsubject">{TITLE}</h3>'
                        f'<div class="nav">{html.escape(NAV)}</div>')
        rows.append(f"<table class='forumbox postbox'><tr><td class='c1'><a class='author'>{author}</a>"
                    f"<div>级别: {level}</div><div>威望: {prestige}</div><div>发帖: {posts}</div></td>"
                    f"<td class='c2'><div class='postInfo'><a>#{floor}</a> <span>{time}</span></div>"
                    f"<span class='postcontent ubbcode'>{_html_body(body)}</span>"
                    f"<div class='postbtm'><a>回复</a> <a>引用</a> <a>举报</a></div></td></tr></table>")
    return ('<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=GBK">'
            f"<title>{TITLE}</title><script>var __CURRENT_UID = 1;</script></head><body>"
            f'<h3 id="postsubject">{TITLE}</h3><div class="nav">{html.escape(NAV)}</div>'
            + "".join(rows) + "</body></html>\n")


if __name__ == "__main__":
    (HERE / "nga-s1m3.txt").write_text(text_page(), encoding="utf-8")
    (HERE / "nga-s1m3-gbk.html").write_bytes(html_page().encode("gbk"))
