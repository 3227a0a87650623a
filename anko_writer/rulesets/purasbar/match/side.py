"""One team during one match: its eleven by slot, coach's plan, and everything that changes in play."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Club, Player
from .abilities import PERCENT, effective, effective_all, effective_total, team_abilities
from .records import Kickoff, MatchMod, TimeoutPlan
from .tactics import ADAPT_PENALTY, Coach

AI_SUB_STAMINA = 30
"""Designed AI substitution policy (§3.4.1 "体力管理需要"): replace a player whose stamina fell
below 30 (the §5.3.2 × 0.6 band) at the next break, while substitutions remain."""
SUBS_NORMAL, SUBS_EXTRA = 3, 1
"""000 §5.5: three substitutions in normal time, one more in extra time."""


@dataclass
class Plan:
    """How a side's coach acts in a match: the readers' votes, or the rulebook's AI rules."""

    coach: Coach
    timeouts: list[TimeoutPlan] | None = None
    """Voted time-outs (``{before, use, when, formation, player}``); ``None``: the AI rule of §7.4."""
    sub_below: int = AI_SUB_STAMINA
    """Substitute players whose stamina is below this at a break."""
    subs_voted: bool = False
    """True when the readers set the policy: the coach then picks the best replacement, not at random."""
    penalty_order: list[str] | None = None
    """Voted kick order (names); ``None``: ATK high to low (§5.4.2)."""
    hide_penalties: bool = False
    """Seal the decisive kicks (§5.8.4): knockout shoot-outs of the readers' club."""


@dataclass
class Side:
    """A team in a match."""

    club: Club
    formation: str
    lineup: dict[str, list[Player]]
    venue: int
    plan: Plan | None = None
    goals: int = 0
    adapting: bool = False
    """In an adaptation period (000 §7.2.2): −2 to every ability."""
    temp: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Player name → (attribute, temporary value) for a player out of position (000 §3.4.2)."""
    boost: dict[str, int] = field(default_factory=dict)
    """Player name → flat bonus for the current slice (000 §7.3.2 ③)."""
    boosted: set[str] = field(default_factory=set)
    """Players already given an individual boost this match (it cannot be repeated)."""
    slices: dict[str, list[int]] = field(default_factory=dict)
    """Player name → slices he was on the pitch for (minutes for §5.7.1)."""
    gone: set[str] = field(default_factory=set)
    """Players who left the pitch (substituted or retired) and may not return."""
    retired: list[tuple[str, Player]] = field(default_factory=list)
    """(slot, player) forced off this slice, waiting for a replacement (000 §5.7.3)."""
    forced_off: list[tuple[str, Player]] = field(default_factory=list)
    """Everyone forced off injured in this match."""
    entries: list[tuple[str, Player, int]] = field(default_factory=list)
    """Everyone who took the pitch: (slot at entry, player, stamina at entry), starters first."""
    subs_used: int = 0
    timeouts_used: int = 0
    morale_boosts: int = 0
    morale_gained: int = 0
    """Team morale added by time-outs this match; it lasts the match (designed reading of §7.3.2 ②)."""
    pre_bonus: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Player name → (attribute, bonus) added before the formation bonus (000 §8.1.2: +2 after training)."""
    mods: list[MatchMod] = field(default_factory=list)
    """Active 安科事件修正 on this side's attacks: ``{amount, slices}`` (000 §5.1.3)."""
    least: int = 0
    """The lowest stamina on the pitch when the last slice ended (100 if higher or no one is on), set by the
    engine's slice end for the §5.5 policy line's test at the next break."""
    kickoff: Kickoff | None = None
    """The side at kick-off (formation, stand-ins against the fewest possible), set by ``prepare``."""
    _team: dict[str, int] | None = field(default=None, repr=False)

    def team_abilities(self) -> dict[str, int]:
        """The club's §3.1 dynamic abilities at kick-off (computed once per match)."""
        if self._team is None:
            self._team = team_abilities(self.club.players)
        return self._team

    def event_mod(self) -> int:
        """The sum of active event modifiers on this side's attacks."""
        return sum(m["amount"] for m in self.mods)

    def tick_mods(self) -> None:
        """A slice has passed: event modifiers with slices left count down, spent ones drop."""
        for m in self.mods:
            m["slices"] -= 1
        self.mods = [m for m in self.mods if m["slices"] > 0]

    def on_pitch(self) -> list[tuple[str, Player]]:
        """(slot, player) pairs, GK first."""
        return [(slot, p) for slot in ("GK", "DF", "MF", "FW") for p in self.lineup[slot]]

    def slot_of(self, player: Player) -> str:
        """The slot a player on the pitch fills."""
        for slot, p in self.on_pitch():
            if p is player:
                return slot
        raise KeyError(player.name)

    def value(self, player: Player, attr: str) -> int:
        """A value as calculations read it: temporary ability (§3.4.2) or the player's own, formation
        bonus, then −2 adapting (§7.2.2) and +3 boosted (§7.3.2), then the stamina penalty (§5.3.2)."""
        base = None
        if self.temp:  # most sides have no stand-in, no training bonus and no boost: three empty dicts
            t = self.temp.get(player.name)
            if t is not None and t[0] == attr:
                base = t[1]
        if self.pre_bonus:
            pre = self.pre_bonus.get(player.name)
            if pre is not None and pre[0] == attr:
                base = (player.attrs[attr] if base is None else base) + pre[1]
        flat = -ADAPT_PENALTY if self.adapting else 0
        if self.boost:
            flat += self.boost.get(player.name, 0)
        return effective(player, attr, self.formation, flat, base)

    def values(self, players: list[Player], attr: str) -> list[int]:
        """:meth:`value` of each of ``players`` (one call for a whole group of an attack)."""
        if self.temp or self.pre_bonus or self.boost:
            return [self.value(p, attr) for p in players]
        return effective_all(players, attr, self.formation, -ADAPT_PENALTY if self.adapting else 0)

    def mean(self, players: list[Player], attr: str) -> int:
        """The group mean of :meth:`values`, rounded down; an empty group counts 0 (000 §5.1.1)."""
        if not players:
            return 0
        flat = -ADAPT_PENALTY if self.adapting else 0
        temp, pre, boost = self.temp, self.pre_bonus, self.boost
        if not (temp or pre or boost):
            return effective_total(players, attr, self.formation, flat) // len(players)
        pct = PERCENT[self.formation].get(attr)
        total = 0
        for p in players:
            name = p.name
            if name in temp or name in pre or name in boost:
                total += self.value(p, attr)  # a stand-in, a trained or a boosted player
                continue
            value = p.attrs[attr]  # abilities.effective's arithmetic, base and boost aside
            if pct is not None:
                value = value * pct // 100
            value += flat
            stamina = p.stamina
            if stamina < 50:
                value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
            if value > 0:
                total += value
        return total // len(players)

    def line_means(self) -> tuple[int, int, int]:
        """:meth:`mean` of the forwards' ATK, the midfielders' MID and the defenders' DEF: the three groups an
        attack and a defence read (000 §5.1.1), in one call."""
        line = self.lineup
        if self.temp or self.pre_bonus or self.boost:
            return self.mean(line["FW"], "ATK"), self.mean(line["MF"], "MID"), self.mean(line["DF"], "DEF")
        pct, flat = PERCENT[self.formation], -ADAPT_PENALTY if self.adapting else 0
        out = [0, 0, 0]
        for i, slot, attr in _LINE_GROUPS:  # effective_total's arithmetic, group by group
            players = line[slot]
            if not players:
                continue  # an empty group counts 0
            p_attr = pct[attr]  # PERCENT holds every ability
            total = 0
            for p in players:
                value = p.attrs[attr] * p_attr // 100 + flat
                stamina = p.stamina
                if stamina < 50:
                    value = value * 4 // 5 if stamina >= 30 else value * 3 // 5
                if value > 0:
                    total += value
            out[i] = total // len(players)
        return out[0], out[1], out[2]

    def bench(self) -> list[Player]:
        """Healthy squad players who have not played in this match."""
        here = {p.name for group in self.lineup.values() for p in group} | self.gone
        return [p for p in self.club.players if p.injured_weeks == 0 and p.name not in here]  # Player.healthy

    def mark_slice(self, n: int, pitch: list[tuple[str, Player]] | None = None) -> None:
        """Record that everyone on the pitch played slice ``n``."""
        for _, p in pitch if pitch is not None else self.on_pitch():
            self.slices.setdefault(p.name, []).append(n)


_LINE_GROUPS = ((0, "FW", "ATK"), (1, "MF", "MID"), (2, "DF", "DEF"))
"""The groups :meth:`Side.line_means` reads, with their attribute (000 §5.1.1)."""
