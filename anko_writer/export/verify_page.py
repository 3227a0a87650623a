"""``verify.html``: the page the ``html`` export writes beside the season pages, where a reader pastes seal
and reveal lines (or whole posts) and checks each commitment with the browser's own SHA-256.

The page is self-contained (inline style and script, nothing fetched; its Content-Security-Policy forbids
any request). Its grammar is not written by hand: the regular expressions and the hashed-text template are
translated from :data:`anko_writer.hidden.GRAMMAR` and :data:`anko_writer.hidden.HASHED` each time the page
is made, so the page parses exactly what ``anko-writer verify`` parses.

>>> js_regex(r"〔(?P<id>[^｜\\s]+)〕").startswith("〔(?<id>[^｜\\\\u{9}-\\\\u{d}")
True
>>> page = verify_page()
>>> "crypto.subtle.digest" in page and "<script src" not in page
True
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from ..hidden import GRAMMAR, HASHED, HASHED_FACT, HASHED_V2
from .html import STYLE

VERIFY_PAGE = "verify.html"
"""The page's file name, beside the season pages (their headers link to it)."""
LINK_TEXT = "核对暗骰"
"""What the season pages' link to the page says."""

_SYNTAX = set("\\^$.|?*+()[]{}/")
"""Characters JavaScript's ``u`` mode lets a pattern escape (``-`` only inside a class)."""
_SAME_ESCAPES = set("ntrfv")
_QUANTIFIER = re.compile(r"\{\d+(?:,\d*)?\}")


SPACES_BELOW = 0x3001
"""Every code point ``str.isspace`` accepts lies below this one (the last is U+3000, the ideographic space):
:func:`_whitespace` looks no further, a tenth of a millisecond instead of 0.3 s for each export of the page;
a test checks the whole of Unicode against it."""


@lru_cache(maxsize=1)
def _whitespace() -> str:
    """The body of a character class holding what Python's ``\\s`` matches in a str pattern (its
    ``str.isspace``), as JavaScript ``\\u{…}`` ranges: JavaScript's own ``\\s`` is a different set."""
    points = [c for c in range(SPACES_BELOW) if chr(c).isspace()]
    runs: list[list[int]] = []
    for c in points:
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "".join(f"\\u{{{a:x}}}" if a == b else f"\\u{{{a:x}}}-\\u{{{b:x}}}" for a, b in runs)


def js_regex(pattern: str) -> str:
    """A Python ``re`` pattern as a JavaScript ``u``-mode pattern that matches the same strings.

    Only constructs whose meaning is known to carry over are translated; anything else (inline flags,
    ``$``, ``\\b``, ``\\d`` …) raises ValueError, so a change to the grammar cannot drift silently."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 == len(pattern):
                raise ValueError(f"pattern ends in a backslash: {pattern!r}")
            e = pattern[i + 1]
            if e == "s":
                out.append(_whitespace() if in_class else f"[{_whitespace()}]")
            elif e in _SAME_ESCAPES or e in _SYNTAX or (in_class and e == "-"):
                out.append("\\" + e)
            else:
                raise ValueError(f"no JavaScript translation for \\{e} in {pattern!r}")
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
        elif c == "[":
            body = i + 2 if pattern.startswith("[^", i) else i + 1
            if pattern.startswith("]", body):
                raise ValueError(f"a class starting with ']' has no JavaScript translation: {pattern!r}")
            in_class = True
            out.append(pattern[i:body])
            i = body
            continue
        elif pattern.startswith("(?P<", i):
            out.append("(?<")
            i += 4
            continue
        elif c == "(" and pattern.startswith("(?", i):
            if not any(pattern.startswith(p, i) for p in ("(?:", "(?=", "(?!", "(?<=", "(?<!")):
                raise ValueError(f"no JavaScript translation for {pattern[i:i + 4]!r} in {pattern!r}")
            out.append(c)
        elif c == "{":
            m = _QUANTIFIER.match(pattern, i)
            if m is None:
                raise ValueError(f"a literal '{{' has no JavaScript translation: {pattern!r}")
            out.append(m.group())
            i = m.end()
            continue
        elif c == "$" or c == "}":
            raise ValueError(f"no JavaScript translation for {c!r} in {pattern!r}")
        elif c == ".":
            out.append("[^\\n]")
        else:
            out.append(c)
        i += 1
    if in_class:
        raise ValueError(f"unclosed class in {pattern!r}")
    return "".join(out)


def js_grammar() -> dict[str, str]:
    """What the page's script parses and hashes with: :data:`~anko_writer.hidden.GRAMMAR` as JavaScript
    patterns, and the hashed templates (:data:`~anko_writer.hidden.HASHED` for v1 lines,
    :data:`~anko_writer.hidden.HASHED_V2` for v2 rolls, :data:`~anko_writer.hidden.HASHED_FACT` for facts)."""
    grammar = {}
    for name, compiled in GRAMMAR.items():
        if compiled.flags != re.UNICODE:
            raise ValueError(f"hidden-dice pattern {name!r} has flags the page does not translate")
        grammar[name] = js_regex(compiled.pattern)
    return {**grammar, "hashed": HASHED, "hashed_v2": HASHED_V2, "hashed_fact": HASHED_FACT}


def _script_json(value: object) -> str:
    """``value`` as a JavaScript literal safe inside ``<script>``, with every non-ASCII character escaped
    (so the page's text holds no seal or reveal line for ``verify`` to read, and OpenCC leaves it alone)."""
    return json.dumps(value, ensure_ascii=True, sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e")


# The paste box names CJK monospace faces before `monospace`: a pasted thread is Chinese, and a Latin
# monospace font made the browser look up a fallback face glyph by glyph on the first paste (three seasons'
# posts, 1.1 million characters: about 2.2 s → 1.7 s in Chromium; issue 29).
_PAGE_STYLE = STYLE + """
textarea { width: 100%; min-height: 12em; font-family: "Noto Sans Mono CJK SC", "Source Han Mono SC", "Sarasa Mono SC",
           monospace; font-size: .95em; box-sizing: border-box; }
button { font-size: 1em; padding: .3em 1.2em; margin: .5em .5em .5em 0; }
section.roll { border: 1px solid #ccc; border-left-width: 6px; padding: .3em 1em; margin: 1em 0; }
section.roll[data-status="pass"] { border-left-color: #2a7d2a; }
section.roll[data-status="fail"], section.roll[data-status="orphan"], section.roll[data-status="malformed"] {
    border-left-color: #b22; }
section.roll[data-status="sealed"] { border-left-color: #999; }
.verdict { font-weight: bold; }
code { word-break: break-all; white-space: pre-wrap; background: #f4f4f4; padding: 0 .2em; }
dt { color: #555; margin-top: .3em; }
dd { margin-left: 1.5em; }
#summary { font-weight: bold; }
"""

_SCRIPT = r"""
"use strict";
const G = __GRAMMAR__;
const LOOSE = new RegExp(G.loose, "gu");
const SEAL = new RegExp("^(?:" + G.seal + ")$", "u");
const REVEAL = new RegExp("^(?:" + G.reveal + ")$", "u");
const SEAL2 = new RegExp("^(?:" + G.seal2 + ")$", "u");
const REVEAL2 = new RegExp("^(?:" + G.reveal2 + ")$", "u");
const FACT_SEAL = new RegExp("^(?:" + G.fact_seal + ")$", "u");
const FACT_REVEAL = new RegExp("^(?:" + G.fact_reveal + ")$", "u");
const CORE_EXPR = new RegExp("^(?:" + G.core_expr + ")$", "u");
const TEMPLATE = {v1: G.hashed, v2: G.hashed_v2, fact: G.hashed_fact};

function hashedText(fields) {
  return TEMPLATE[fields.kind || "v1"].replace(/\{(\w+)\}/g, (_, key) => fields[key]);
}

async function sha256hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), b => b.toString(16).padStart(2, "0")).join("");
}

function parse(text) {
  const seals = [], reveals = [], bad = [];
  let line = 1, at = 0;  // the line of text[at], counted on from the previous match (a whole paste: one pass)
  for (const m of text.matchAll(LOOSE)) {
    for (let nl = text.indexOf("\n", at); nl !== -1 && nl < m.index; nl = text.indexOf("\n", nl + 1)) line++;
    at = m.index;
    const t = m[0];
    let s, r;
    if ((s = SEAL.exec(t))) seals.push({id: s.groups.id, expr: s.groups.expr, commit: s.groups.commit, line, text: t,
                                        kind: "v1", reading: ""});
    else if ((r = REVEAL.exec(t))) reveals.push({id: r.groups.id, expr: r.groups.expr,
                                                 value: BigInt(r.groups.value).toString(), salt: r.groups.salt, line,
                                                 text: t, kind: "v1", reading: "", faces: "", payload: ""});
    else if ((s = SEAL2.exec(t))) seals.push({id: s.groups.id, expr: s.groups.expr, commit: s.groups.commit, line,
                                              text: t, kind: "v2", reading: s.groups.reading});
    else if ((r = REVEAL2.exec(t))) reveals.push({id: r.groups.id, expr: r.groups.expr,
                                                  value: BigInt(r.groups.value).toString(), salt: r.groups.salt, line,
                                                  text: t, kind: "v2", reading: r.groups.reading,
                                                  faces: r.groups.faces, payload: ""});
    else if ((s = FACT_SEAL.exec(t))) seals.push({id: s.groups.id, expr: "\u4e8b\u5b9e", commit: s.groups.commit,
                                                  line, text: t, kind: "fact", reading: ""});
    else if ((r = FACT_REVEAL.exec(t))) reveals.push({id: r.groups.id, expr: "\u4e8b\u5b9e", value: "0",
                                                      salt: r.groups.salt, line, text: t, kind: "fact", reading: "",
                                                      faces: "", payload: r.groups.payload});
    else bad.push({line, text: t});
  }
  return {seals, reveals, bad};
}

function readingValue(reading, faces) {
  if (reading === "sum") return faces.reduce((a, b) => a + b, 0);
  if (reading === "tens_units") return faces.reduce((a, b) => a * 10 + b, 0);
  if (reading === "spread") return faces.length >= 2 ? Math.max(...faces) - Math.min(...faces) + faces.length - 2 : 0;
  if (reading === "highest") return Math.max(...faces);
  const least = Number(reading.split(":")[1]);
  return faces.filter(f => f >= least).length;
}

function inconsistency(rev) {
  if (rev.kind === "fact") {
    try { JSON.parse(rev.payload); return null; } catch (e) { return "json"; }
  }
  const m = rev.kind === "v2" ? CORE_EXPR.exec(rev.expr) : null;
  if (!m) return null;
  const count = Number(m.groups.count || 1), sides = Number(m.groups.sides);
  const mod = Number(m.groups.mod || 0) * (m.groups.sign === "-" ? -1 : 1);
  const faces = rev.faces.split(",").map(Number);
  if (faces.length !== count || Math.max(...faces) > sides) return "faces";
  return BigInt(readingValue(rev.reading, faces) + mod) === BigInt(rev.value) ? null : "faces";
}

const FAILING = ["fail", "expr", "early", "kind", "reading", "faces", "json"];

async function check(text) {
  const {seals, reveals, bad} = parse(text);
  const rolls = new Map();
  const roll = id => {
    if (!rolls.has(id)) rolls.set(id, {id, seals: [], reveals: []});
    return rolls.get(id);
  };
  seals.forEach(s => roll(s.id).seals.push(s));
  reveals.forEach(r => roll(r.id).reveals.push(r));
  for (const r of rolls.values()) {
    const seal = r.seals[0];
    r.conflict = r.seals.some(s => s.commit !== seal.commit || s.expr !== seal.expr || s.kind !== seal.kind
                                   || s.reading !== seal.reading);
    for (const rev of r.reveals) {
      rev.hashed = hashedText({kind: rev.kind, roll_id: rev.id, expr: rev.expr, reading: rev.reading, faces: rev.faces,
                               value: rev.value, payload: rev.payload, salt: rev.salt});
      rev.digest = await sha256hex(rev.hashed);
      if (!seal) rev.status = "orphan";
      else if (rev.line < seal.line) rev.status = "early";
      else if (rev.kind !== seal.kind) rev.status = "kind";
      else if (rev.reading !== seal.reading) rev.status = "reading";
      else if (rev.expr !== seal.expr) rev.status = "expr";
      else if (rev.digest !== seal.commit) rev.status = "fail";
      else rev.status = inconsistency(rev) || "pass";
    }
    const states = r.reveals.map(rev => rev.status);
    r.status = r.conflict || states.some(s => FAILING.includes(s)) ? "fail"
      : states.includes("orphan") ? "orphan" : states.length ? "pass" : "sealed";
  }
  return {rolls: [...rolls.values()], bad};
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function field(dl, name, value, cls) {
  dl.append(el("dt", name));
  const dd = el("dd");
  dd.append(el("code", value, cls));
  dl.append(dd);
}

const VERDICT = {
  pass: "✔ 通过：算出的 SHA-256 与封存的承诺一致。",
  fail: "✘ 不符：算出的 SHA-256 与封存的承诺不同。编号、表达式、点数或盐被改过，或者贴错了行。",
  expr: "✘ 不符：揭晓行的表达式与封存行的不同。",
  kind: "✘ 不符：揭晓行与封存行不是同一种（v1 骰子、v2 骰子或事实）。",
  reading: "✘ 不符：揭晓行的读法与封存行的不同。",
  faces: "✘ 承诺一致，但揭晓的各骰点数按其读法算不出揭晓的结果（或不是该表达式掷得出的点数）。",
  json: "✘ 承诺一致，但揭晓的事实不是合法的 JSON。",
  early: "✘ 揭晓行贴在了封存行上面：揭晓必须在封存之后（同一帖里在下方，或在更晚的帖子里）。",
  orphan: "？ 只有揭晓行：没有找到编号相同的封存行，无法核对。请把封存行也贴进来。",
  sealed: "… 只有封存行：这颗骰子尚未揭晓，或者揭晓行没有贴进来。",
  conflict: "✘ 同一编号有两条不同的封存行。",
};

function show(result) {
  const box = document.getElementById("results");
  box.replaceChildren();
  for (const r of result.rolls) {
    const sec = el("section", undefined, "roll");
    sec.dataset.id = r.id;
    sec.dataset.status = r.status;
    sec.append(el("h3", "编号 " + r.id));
    if (r.conflict) sec.append(el("p", VERDICT.conflict, "verdict"));
    if (!r.reveals.length) sec.append(el("p", VERDICT.sealed, "verdict"));
    const dl = el("dl");
    r.seals.forEach(s => field(dl, "封存行（第 " + s.line + " 行）", s.text, "seal"));
    sec.append(dl);
    for (const rev of r.reveals) {
      const part = el("div", undefined, "reveal");
      part.dataset.status = rev.status;
      part.append(el("p", VERDICT[rev.status], "verdict"));
      const rdl = el("dl");
      field(rdl, "揭晓行（第 " + rev.line + " 行）", rev.text, "reveal-line");
      field(rdl, "被哈希的文本（UTF-8，" + new TextEncoder().encode(rev.hashed).length + " 字节）", rev.hashed,
            "hashed");
      field(rdl, "算出的 SHA-256", rev.digest, "digest");
      if (r.seals.length) field(rdl, "封存的承诺", r.seals[0].commit, "commit");
      part.append(rdl);
      sec.append(part);
    }
    box.append(sec);
  }
  for (const b of result.bad) {
    const sec = el("section", undefined, "roll");
    sec.dataset.status = "malformed";
    sec.append(el("p", "✘ 第 " + b.line + " 行像是封存行或揭晓行，但格式不对，无法解析：", "verdict"));
    sec.append(el("code", b.text));
    box.append(sec);
  }
  const count = s => result.rolls.filter(r => r.status === s).length;
  const problems = count("fail") + count("orphan") + result.bad.length;
  const summary = document.getElementById("summary");
  summary.dataset.verdict = !result.rolls.length && !result.bad.length ? "empty" : problems ? "problem" : "ok";
  summary.textContent = !result.rolls.length && !result.bad.length
    ? "没有找到封存行或揭晓行。"
    : "通过 " + count("pass") + " 个，不符 " + count("fail") + " 个，只有揭晓行 " + count("orphan")
      + " 个，仍封存 " + count("sealed") + " 个，无法解析 " + result.bad.length + " 行。";
}

let runs = 0;
async function run() {
  const mine = ++runs;
  const summary = document.getElementById("summary");
  summary.dataset.state = "running";
  if (!(window.crypto && crypto.subtle)) {
    summary.dataset.state = "done";
    summary.dataset.verdict = "unavailable";
    summary.textContent = "这个浏览器在此处不提供 SHA-256（WebCrypto）。请把本页保存到电脑上直接打开，或用 https 打开。";
    return;
  }
  const result = await check(document.getElementById("paste").value);
  if (mine !== runs) return;
  show(result);
  summary.dataset.state = "done";
}

document.getElementById("check").addEventListener("click", run);
document.getElementById("paste").addEventListener("input", run);
document.getElementById("clear").addEventListener("click", () => {
  document.getElementById("paste").value = "";
  run();
});
window.anko = {parse, check, hashedText};
"""

_BODY = """\
<h1>暗骰核对</h1>
<p>隐藏骰掷出时只贴一行封存，里面有承诺值；揭晓时再贴一行揭晓，里面有点数和盐。把封存行和对应的揭晓行贴到下面，
也可以直接贴整帖或几帖（简体、繁体都行）。对每个编号，本页把揭晓行的“编号|表达式|点数|盐”按 UTF-8 用浏览器自带的
SHA-256（WebCrypto）算一遍，与封存行的承诺值比对，并列出被哈希的原文，你也可以用任何 SHA-256 工具自己再算一遍。</p>
<p>标有 v2 的行另把读法和各骰点数（“v2|编号|表达式|读法|各骰点数|结果|盐”）或封存的事实（“v2|编号|fact|JSON|盐”）
一并哈希；本页还核对各骰点数按读法算出的结果与揭晓的一致。</p>
<p>本页不联网：所有计算都在你的浏览器里完成。</p>
<textarea id="paste" spellcheck="false" aria-label="贴入帖子"></textarea>
<div><button id="check" type="button">核对</button><button id="clear" type="button">清空</button></div>
<p id="summary" aria-live="polite"></p>
<div id="results"></div>
"""


def verify_page() -> str:
    """The whole ``verify.html`` (simplified script; an export in traditional script converts it with OpenCC,
    which leaves the grammar alone since it is written with ASCII escapes)."""
    script = _SCRIPT.replace("__GRAMMAR__", _script_json(js_grammar()))
    csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"
    return (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>暗骰核对</title>\n<style>{_PAGE_STYLE}</style>\n</head>\n<body>\n{_BODY}"
            f"<script>{script}</script>\n</body>\n</html>\n")


__all__ = ["LINK_TEXT", "VERIFY_PAGE", "js_grammar", "js_regex", "verify_page"]
