"""Whether a season meets the IFPA's requirements for an endorsed league, and what it is worth.

The FWPL rulebook says nothing about the IFPA; these are the IFPA's own rules for leagues,
each check naming the page it comes from (`IfpaSource`). Every number is a field of
`IfpaParameters` with the IFPA's figure as its default, so a league can follow the IFPA when
it changes a number without a new release.

The figures and their sources are `ifpa_parameters`'; the facts the checks read
(`IfpaSeasonFacts`) are `ifpa_season_facts`'.

Words:
- *session*: one meet of the regular season (the playoffs night is not counted as one: the
  IFPA's league page does not say it is, so the check does not lean on it).
- *held* / *counted*: meets closed so far (`held_meets`: the meet being played is not held
  yet, as it is not played in `flipwell.rules.progress`) / meets whose points make up the
  standings (FWPL totals every meet, R6.1-d, so every meet held is counted).
- *members*: the players entered in the season.
- *finalists*: the players seeded into the playoffs (R6.2-a), or before the playoffs are
  seeded the number the rules will qualify (`playoff_qualifier_count`).
- *meaningful games*: the TGP's unit: games a player plays, times (players in the game) / 2.
- *planned*: before the first meet is held, the checks read the schedule (meets planned, groups of
  four) instead of what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flipwell.rules.checks import fmt
from flipwell.rules.final_positions import attendance_threshold
from flipwell.rules.ifpa_parameters import (
    ATTENDANCE,
    DIRECT_PLAY,
    FEE,
    FINALS,
    IFPA_DEFAULTS,
    SESSIONS,
    TGP,
    IfpaCheckName,
    IfpaParameters,
    IfpaSource,
)
from flipwell.rules.ifpa_season_facts import IfpaGames, IfpaSeasonFacts, planned_ifpa_facts
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.treasury import money


@dataclass(frozen=True)
class IfpaCheck:
    """One check: passed or not, the figures it read, the rule, and what it means in words.

    estimate: a figure to know rather than a requirement (the TGP, the fee); its `passed`
    says whether the season gets the full value (TGP) and is always True for the fee.
    """

    name: IfpaCheckName
    passed: bool
    figures: tuple[tuple[str, str], ...]
    source: IfpaSource
    explanation: str
    estimate: bool = False


@dataclass(frozen=True)
class IfpaCompliance:
    """Every check of a season, in `IfpaCheckName` order, and the parameters they used."""

    checks: tuple[IfpaCheck, ...]
    parameters: IfpaParameters
    planned: bool

    @property
    def passed(self) -> bool:
        """Every requirement passed (the estimates do not count)."""
        return all(c.passed for c in self.checks if not c.estimate)

    def check(self, name: IfpaCheckName) -> IfpaCheck:
        """The check called `name`."""
        return next(c for c in self.checks if c.name is name)


def ifpa_compliance(
    facts: IfpaSeasonFacts, *, parameters: IfpaParameters = IFPA_DEFAULTS
) -> IfpaCompliance:
    """Check a season against the IFPA's league requirements and estimate its TGP and fee.

    Sources: `SESSIONS`, `ATTENDANCE`, `DIRECT_PLAY`, `FINALS`, `TGP`, `FEE` (this module's
    docstring gives each page). Planned (before the first meet): the sessions are the meets
    scheduled and nobody is left out yet. Pure; RuleError for impossible facts.
    """
    p = parameters
    checks = (
        _sessions_held(facts, p),
        _sessions_counted(facts, p),
        _attendance(facts, p),
        _direct_play(facts, p),
        _finals_share(facts, p),
        _tgp(facts, p),
        _fee(facts, p),
    )
    return IfpaCompliance(checks, p, facts.planned)


def _sessions(facts: IfpaSeasonFacts, *, counted: bool) -> tuple[int, str]:
    """The sessions a check reads and their word: planned meets before the first meet."""
    if facts.planned:
        return facts.meets_scheduled, "scheduled"
    return (facts.meets_counted if counted else facts.meets_held), (
        "counted" if counted else "held"
    )


def _sessions_held(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    sessions, word = _sessions(facts, counted=False)
    passed = sessions >= p.min_sessions
    verdict = "enough" if passed else f"{p.min_sessions - sessions} short"
    return IfpaCheck(
        IfpaCheckName.SESSIONS_HELD,
        passed,
        (("meets " + word, str(sessions)), ("needed", str(p.min_sessions))),
        SESSIONS,
        f"{sessions} meets {word}; the IFPA asks for at least {p.min_sessions} a season: "
        f"{verdict}.",
    )


def _sessions_counted(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    sessions, word = _sessions(facts, counted=True)
    passed = sessions >= p.min_counted_sessions
    return IfpaCheck(
        IfpaCheckName.SESSIONS_COUNTED,
        passed,
        (("meets " + word, str(sessions)), ("needed", str(p.min_counted_sessions))),
        SESSIONS,
        f"Every meet's points count towards the standings: {sessions} meets {word}, at least "
        f"{p.min_counted_sessions} must count.",
    )


def _attendance(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    held = facts.meets_scheduled if facts.planned else facts.meets_held
    needed = attendance_threshold(held)
    short = 0 if facts.planned else sum(1 for count in facts.attended if count < needed)
    listed = len(facts.attended) - short
    words = (
        f"Nobody is left out before the first meet; a player will need {needed} of the "
        f"{held} meets (half) to be listed, unless they reach the finals."
        if facts.planned
        else f"{listed} players attended at least {needed} of the {held} meets held "
        f"(half); {short} attended fewer and are left out of the IFPA "
        "file unless they reached the finals (the IFPA submission lists who and why)."
    )
    return IfpaCheck(
        IfpaCheckName.ATTENDANCE,
        True,
        (("meets needed", str(needed)), ("listed", str(listed)), ("below", str(short))),
        ATTENDANCE,
        words,
    )


def _direct_play(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    large = facts.members >= p.direct_play_members
    passed = facts.direct_play or not large
    size = (
        f"{facts.members} players, {'at least' if large else 'fewer than'} {p.direct_play_members}"
    )
    if not large:
        words = f"{size}: the IFPA does not require direct play."
    elif facts.direct_play:
        words = f"{size}: direct play is required, and the groups play head-to-head."
    else:
        words = f"{size}: direct play is required, and this season is not played head-to-head."
    return IfpaCheck(
        IfpaCheckName.DIRECT_PLAY,
        passed,
        (
            ("players", str(facts.members)),
            ("direct play from", str(p.direct_play_members)),
            ("head-to-head", "yes" if facts.direct_play else "no"),
        ),
        DIRECT_PLAY,
        words,
    )


def _finals_needed(members: int, percent: int) -> int:
    """The fewest finalists that are at least `percent` of `members` (rounded up)."""
    return -(-members * percent // 100)


def _finals_share(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    needed = _finals_needed(facts.members, p.finals_percent)
    passed = facts.finalists >= needed and facts.finalists > 0
    verb = "will reach" if facts.planned else "reach"
    return IfpaCheck(
        IfpaCheckName.FINALS_SHARE,
        passed,
        (
            ("finalists", str(facts.finalists)),
            ("players", str(facts.members)),
            ("needed", str(max(needed, 1))),
        ),
        FINALS,
        f"{facts.finalists} of {facts.members} players {verb} the finals; at least "
        f"{p.finals_percent}% ({max(needed, 1)}) must, for the finals to count.",
    )


def tgp_percent(
    meets: Sequence[IfpaGames],
    finals: Sequence[IfpaGames] = (),
    *,
    parameters: IfpaParameters = IFPA_DEFAULTS,
) -> Fraction:
    """The TGP of a season: its meaningful games times the percent a game, up to the ceiling
    (`TGP`: 4% a game, 100%; 200% when `finals` are given, a separate finals part).

    Never decreases when a game is added (a game counts at least half a game's worth).
    """
    games = sum((g.meaningful for g in (*meets, *finals)), Fraction(0))
    ceiling = (
        parameters.tgp_ceiling_with_finals_percent if finals else parameters.tgp_ceiling_percent
    )
    return min(games * parameters.tgp_percent_per_game, Fraction(ceiling))


def _tgp(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    finals_count = facts.post_finals and facts.finalists >= max(
        _finals_needed(facts.members, p.finals_percent), 1
    )
    finals = facts.finals if finals_count else ()
    percent = tgp_percent(facts.meets, finals, parameters=p)
    ceiling = p.tgp_ceiling_with_finals_percent if finals else p.tgp_ceiling_percent
    games = sum((g.meaningful for g in (*facts.meets, *finals)), Fraction(0))
    which = "with the finals" if finals else "regular season only"
    full = percent >= ceiling
    tail = "the full value." if full else f"short of the {ceiling}% a season can reach."
    return IfpaCheck(
        IfpaCheckName.TGP,
        full,
        (
            ("meaningful games", fmt(games)),
            ("TGP", f"{fmt(percent)}%"),
            ("ceiling", f"{ceiling}%"),
        ),
        TGP,
        f"About {fmt(games)} meaningful games ({which}): an estimated TGP of {fmt(percent)}%, "
        f"{tail} The IFPA sets the TGP when it grades the results.",
        estimate=True,
    )


def _fee(facts: IfpaSeasonFacts, p: IfpaParameters) -> IfpaCheck:
    listed = facts.members if facts.planned else None
    if listed is None:
        held = facts.meets_held
        needed = attendance_threshold(held)
        listed = sum(1 for count in facts.attended if count >= needed)
    total = listed * p.fee_cents_per_player
    who = "players entered" if facts.planned else "players attending enough to be listed"
    return IfpaCheck(
        IfpaCheckName.FEE,
        True,
        (
            ("players", str(listed)),
            ("per player", f"{p.fee_currency} {money(p.fee_cents_per_player)}"),
            ("total", f"{p.fee_currency} {money(total)}"),
        ),
        FEE,
        f"About {p.fee_currency} {money(total)}: {p.fee_currency} "
        f"{money(p.fee_cents_per_player)} for each of the {listed} {who}, paid to the IFPA "
        "once it approves the results"
        + ("." if facts.planned else " (finalists below the attendance line add to it)."),
        estimate=True,
    )


def ifpa_schedule_warnings(
    *,
    number_of_meets: int,
    members: int,
    ruleset: Ruleset = FWPL_V1,
    parameters: IfpaParameters = IFPA_DEFAULTS,
) -> tuple[str, ...]:
    """What a season's schedule cannot meet, in words, before its first meet (`SESSIONS`,
    `DIRECT_PLAY`); empty when it meets them all. The finals share is left out: the roster
    still changes before the first meet."""
    facts = planned_ifpa_facts(number_of_meets=number_of_meets, members=members, ruleset=ruleset)
    checks = ifpa_compliance(facts, parameters=parameters).checks
    return tuple(
        c.explanation
        for c in checks
        if not (c.passed or c.estimate or c.name is IfpaCheckName.FINALS_SHARE)
    )
