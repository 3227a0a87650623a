"""接战's hidden information (design engage.md §1.6): the enemy's unit cards the readers do not know yet and its
hidden deployments, each a secret fact committed before the battle's first vote and revealed in the chapter where
it first matters — else at the battle's end.

* A **hidden card** (``card_hidden: [traits, armour]``): the unit stands in the open, but the listed fields are
  sealed. Until they are revealed, everything published is reckoned from the *public card* (those fields as
  nothing: no traits, no armour, no shield, no tactics) — the readers' preview, the fallback orders and the AI's
  own choices and reasons alike (DESIGNED: so no published choice gives the card away). The card is revealed in
  the first round in which the unit closes or is closed on, shoots or is shot, fights, disengages or checks: the
  rounds whose dice read it (E13–E21).
* A **hidden deployment** (``hidden: true``): the whole card, zone included, is sealed and the unit is out of play.
  It springs at a round's start when a readers' unit stands in its zone or in a zone its missiles reach, or is
  fighting one of its side where its charge closes (DESIGNED): its attacks that round are 突袭 (E13: the target's side did not know it was
  there). It is seen at a round's end when a readers' unit stands in its zone (then it springs no ambush).

Chapter 0 prints battle 1's seal lines; the end chapter of battle N prints battle N+1's (DESIGNED: the last post
before battle N+1's first vote, so the host fixes the hidden cards before any reader's order of that battle).
A fact's id never names a hidden deployment's unit (``b1/伏/1#伏``).

>>> fact_id(2, "卡", "巨魔")
'b2/卡/巨魔#卡'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from ...chapters import ChapterKey, Record
from ...hidden import Fact, fact_commitment
from ...seals import SealBook, with_salts
from .battle import Battle, RoundRecord, Troop
from .units import HIDDEN_FIELDS, Armour

FAR = 99
"""A fact's due date in parts after its sealing: far past any battle's end, so only :func:`reveal_now` or the end
chapter reveals it."""
CARD, DEPLOYMENT = "卡", "伏"
"""The two kinds of fact, as their ids write them."""
PURPOSE = {CARD: "敌军部队卡", DEPLOYMENT: "伏兵部署"}


def fact_id(arc: int, kind: str, key: str) -> str:
    """A fact's id: ``b<battle>/<kind>/<unit or number>#<kind>``."""
    return f"b{arc}/{kind}/{key}#{kind}"


def card_payload(t: Troop, fields: Collection[str]) -> Record:
    """The sealed fields of ``t``'s card (as the chapter's unit record writes them) and the unit's id."""
    card = t.card()
    return {"unit": t.id, **{f: card.get(f) for f in HIDDEN_FIELDS if f in fields}}


def facts(b: Battle) -> dict[str, tuple[Fact, str]]:
    """Every secret fact of battle ``b`` at its start: id → (the fact, the unit it is about). Deployments are
    numbered in unit-id order."""
    out: dict[str, tuple[Fact, str]] = {}
    for uid in sorted(b.unknown):
        if uid in b.troops:
            f = Fact(fact_id(b.arc, CARD, uid), card_payload(b.troops[uid], b.unknown[uid]), PURPOSE[CARD])
            out[f.id] = (f, uid)
    for n, uid in enumerate(sorted(b.reserves), start=1):
        f = Fact(fact_id(b.arc, DEPLOYMENT, str(n)), b.reserves[uid].card(), PURPOSE[DEPLOYMENT])
        out[f.id] = (f, uid)
    return out


def public_troop(t: Troop, hidden: Collection[str]) -> Troop:
    """``t`` as the readers know it: each hidden field as nothing."""
    return replace(t, traits=() if "traits" in hidden else t.traits, tactics=() if "tactics" in hidden else t.tactics,
                   armour=Armour() if "armour" in hidden else t.armour,
                   shield=None if "shield" in hidden else t.shield)


def public_view(b: Battle) -> Battle:
    """The battle as the readers see it (hidden deployments absent, hidden cards public): what every published
    choice is reckoned from."""
    if not b.unknown:
        return b
    troops = {i: public_troop(t, b.unknown[i]) if i in b.unknown else t for i, t in b.troops.items()}
    return replace(b, troops=troops)


def springs(b: Battle, r: Troop) -> bool:
    """Whether the hidden unit ``r`` springs its ambush now (DESIGNED, the ambush waits for the bait to be taken):
    a readers' unit stands in its zone or in a zone its missiles reach, or is fighting one of its side in a zone its
    charge at full speed closes on."""
    for u in b.alive(b.readers):
        lv, ob = b.zone_distance(r.zone, u.zone)
        if u.zone == r.zone or any(w.reach >= lv and any(m != "白刃" for m in w.modes) for w in r.weapons):
            return True
        baited = any(b.troops[o].side == r.side for o in u.engaged_with)
        if baited and r.melee_weapon is not None and b.speed(r, "全速").value >= lv + ob:
            return True
    return False


def seen(b: Battle, r: Troop) -> bool:
    """Whether the hidden unit ``r`` is seen at the round's end: a readers' unit stands in its zone."""
    return any(u.zone == r.zone for u in b.alive(b.readers))


def involved(rr: RoundRecord) -> set[str]:
    """The units whose dice the round read: closers and their targets, shooters, fighters, leavers, checks."""
    out: set[str] = set()
    for c in rr.closings:
        out |= {c["unit"], c["target"]}
    for e in rr.engagements:
        out |= {e["attacker"], e["defender"]}
    for d in rr.disengage:
        out |= {d["unit"], d["from"]}
    out |= {c["unit"] for c in rr.checks}
    return out


def seal_records(found: Mapping[str, tuple[Fact, str]], b: Battle, seed: int, at: list[int]) -> list[Record]:
    """The chapter's ``seals`` entries (§1.7) for the facts ``found`` of battle ``b``: the commitment its seal
    line posts, the side, where it was sealed, and the fact's record under ``seal`` (masked by the core)."""
    out = []
    for fid, (f, uid) in found.items():
        t = b.troops.get(uid) or b.reserves[uid]
        out.append({"id": fid, "kind": "card" if fid.endswith(CARD) else "deployment", "expr": "事实",
                    "commitment": fact_commitment(f, seed), "side": t.side, "at": at, "seal": f.to_json()})
    return out


def reveal_now(book: SealBook, ids: Collection[str], at: ChapterKey) -> list[Record]:
    """Reveal the sealed facts ``ids`` in chapter ``at``, before their due date (:meth:`SealBook.reveal`)."""
    return book.reveal(ids, lambda outcome: None)


def told(reveals: list[Record], seed: int) -> None:
    """The contract's reveal fields (§1.7 ``{id, expr, value, salt, state}``) on each fact's reveal record."""
    with_salts(reveals, seed, "事实")


def check_carried(book: SealBook, found: Mapping[str, tuple[Fact, str]], arc: int, where: str) -> list[str]:
    """Facts of battle ``arc`` the last battle's end chapter did not seal (to seal now); a ValueError when a carried
    one no longer matches the battle (its state file or campaign edited after the commitment)."""
    carried = {s.id: s for s in book.pending()}
    missing = []
    for fid, (f, _) in found.items():
        s = carried.get(fid)
        if s is None:
            missing.append(fid)
        elif Fact(fid, s.roll["fact"]).canonical != f.canonical:
            raise ValueError(f"{where}: 第{arc}战的封存事实 {fid} 与上一战结算帖里的承诺不符（战后改动了这支部队？）")
    return missing


def unit_of(found: Mapping[str, tuple[Fact, str]], uid: str, kind: str) -> str | None:
    """The id of ``uid``'s fact of ``kind`` among ``found``."""
    return next((fid for fid, (_, u) in found.items() if u == uid and fid.endswith(kind)), None)


__all__ = ["CARD", "DEPLOYMENT", "FAR", "HIDDEN_FIELDS", "PURPOSE", "card_payload", "check_carried", "fact_id",
           "facts", "involved", "public_troop", "public_view", "reveal_now", "seal_records", "seen",
           "springs", "told", "unit_of"]
