"""Whether a season meets the IFPA's requirements for an endorsed league, and what it is worth.

The FWPL rulebook says nothing about the IFPA; these are the IFPA's own rules for leagues,
each check naming the page it comes from (`IfpaSource`). Every number is a field of
`IfpaParameters` with the IFPA's figure as its default, so a league can follow the IFPA when
it changes a number without a new release.

Sources (the pages each default was read from):

- League definitions: https://www.ifpapinball.com/definitions/ ("IFPA Leagues, Sanctioning
  Requirements": at least 6 sessions a season, at least 4 of them counted towards a player's
  standing; a member must compete in at least 50% of the sessions held to be listed; leagues of
  50 or more members must use direct play for the regular season and the finals), as quoted
  on http://tiltforums.com/t/how-many-meetings-can-you-drop-in-an-8-week-league-per-ifpa/7960
  and http://tiltforums.com/t/ifpa-league-and-tournament-definitions-proposed-rules/7362
  (where the IFPA's president adds that a league of fewer than 50 may play indirectly in the
  regular season if its finals are direct play with at least 10% of the season's players).
- TGP (Tournament Grading Percentage): https://www.ifpapinball.com/tgpguide/ and
  https://www.ifpapinball.com/td101-tgp-and-tiebreakers/ (25 meaningful games grade an event
  at 100%, i.e. 4% a game; a game counts players / 2 times: a 4-player game twice, a
  3-player game 1.5 times); the 200% ceiling for a qualifying part plus a finals part with at
  least 10% of the players: http://tiltforums.com/t/wppr-v5-8-sneak-peek/7650/628.
- Endorsement fee: https://www.ifpapinball.com/payment/ (USD 1 per player per event in North
  America) and https://www.ifpapinball.com/ifpa-wppr-system-global-endorsement-fee-to-start-in-2023/
  (a fee everywhere since 2023, in local currencies).

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
from dataclasses import dataclass, fields
from enum import StrEnum
from fractions import Fraction

from flipwell.rules.checks import check_count, fmt
from flipwell.rules.errors import RuleError
from flipwell.rules.final_positions import attendance_threshold
from flipwell.rules.playoffs import MIN_PLAYERS, divisions_for_qualifiers, playoff_qualifier_count
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season_values import MeetFacts
from flipwell.rules.treasury import money

DEFINITIONS_URL = "https://www.ifpapinball.com/definitions/"
TGP_GUIDE_URL = "https://www.ifpapinball.com/tgpguide/"
TGP_BASICS_URL = "https://www.ifpapinball.com/td101-tgp-and-tiebreakers/"
TGP_FINALS_URL = "http://tiltforums.com/t/wppr-v5-8-sneak-peek/7650/628"
FEE_URL = "https://www.ifpapinball.com/payment/"
GLOBAL_FEE_URL = (
    "https://www.ifpapinball.com/ifpa-wppr-system-global-endorsement-fee-to-start-in-2023/"
)
SMALL_LEAGUE_URL = (
    "http://tiltforums.com/t/ifpa-league-and-tournament-definitions-proposed-rules/7362"
)


@dataclass(frozen=True)
class IfpaSource:
    """The IFPA rule a check comes from: its words (short) and the page they are on."""

    rule: str
    url: str


@dataclass(frozen=True)
class IfpaBounds:
    """The whole numbers a parameter may take, and its source."""

    low: int
    high: int
    source: IfpaSource


class IfpaCheckName(StrEnum):
    """The checks, in the order they are shown."""

    SESSIONS_HELD = "sessions_held"
    SESSIONS_COUNTED = "sessions_counted"
    ATTENDANCE = "attendance"
    DIRECT_PLAY = "direct_play"
    FINALS_SHARE = "finals_share"
    TGP = "tgp"
    FEE = "fee"

    @property
    def words(self) -> str:
        """The check's name in words."""
        return _TITLES[self]


_TITLES = {
    IfpaCheckName.SESSIONS_HELD: "Meets in the season",
    IfpaCheckName.SESSIONS_COUNTED: "Meets that count",
    IfpaCheckName.ATTENDANCE: "Players attending half the meets",
    IfpaCheckName.DIRECT_PLAY: "Direct play",
    IfpaCheckName.FINALS_SHARE: "Players in the finals",
    IfpaCheckName.TGP: "TGP (estimate)",
    IfpaCheckName.FEE: "Endorsement fee (estimate)",
}


SESSIONS = IfpaSource(
    "Leagues must have a minimum of 6 sessions per season, of which at least 4 must count "
    "toward a player's standing",
    DEFINITIONS_URL,
)
ATTENDANCE = IfpaSource(
    "League members must compete in at least 50% of the sessions held in a season to be "
    "included in the results submitted to the IFPA",
    DEFINITIONS_URL,
)
DIRECT_PLAY = IfpaSource(
    "Leagues of 50 or more members must contain direct-play formats for the regular season "
    "and finals",
    DEFINITIONS_URL,
)
FINALS = IfpaSource(
    "A finals part must include at least 10% of the participants (for an indirect-play "
    "league's finals, and for the finals' games to add to the TGP)",
    SMALL_LEAGUE_URL,
)
TGP = IfpaSource(
    "25 meaningful games grade an event at 100% (4% a game); a 4-player game counts twice, a "
    "3-player game 1.5 times; with a separate finals part the ceiling is 200%",
    TGP_GUIDE_URL,
)
FEE = IfpaSource("An endorsement fee per player per event (USD 1 in North America)", FEE_URL)


@dataclass(frozen=True)
class IfpaParameters:
    """The IFPA's numbers for leagues; each default is the figure on the page its bound names.

    A league whose IFPA region or year uses another figure passes its own (the fee outside
    North America is set in local currency on the IFPA's global fee page; the 200% finals
    ceiling was announced for WPPR v5.8 and is not confirmed for later versions). The 50%
    attendance is not one of them: it is the IFPA file's own filter (`attendance_threshold`,
    `ifpa_selection`), so the check and the file never disagree.
    """

    min_sessions: int = 6
    min_counted_sessions: int = 4
    direct_play_members: int = 50
    finals_percent: int = 10
    tgp_percent_per_game: int = 4
    tgp_ceiling_percent: int = 100
    tgp_ceiling_with_finals_percent: int = 200
    fee_cents_per_player: int = 100
    fee_currency: str = "USD"

    def __post_init__(self) -> None:
        for name, bounds in PARAMETER_BOUNDS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(f"IFPA parameter {name} is a whole number, not {value!r}")
            if not bounds.low <= value <= bounds.high:
                raise RuleError(
                    f"IFPA parameter {name} cannot be {value}; allowed: a whole number from "
                    f"{bounds.low} to {bounds.high}"
                )
        code = self.fee_currency
        if not (len(code) == 3 and code.isascii() and code.isalpha() and code.isupper()):
            raise RuleError(f"IFPA fee currency is a 3-letter code like USD, not {code!r}")


PARAMETER_BOUNDS: dict[str, IfpaBounds] = {
    "min_sessions": IfpaBounds(1, 100, SESSIONS),
    "min_counted_sessions": IfpaBounds(1, 100, SESSIONS),
    "direct_play_members": IfpaBounds(1, 10_000, DIRECT_PLAY),
    "finals_percent": IfpaBounds(0, 100, FINALS),
    "tgp_percent_per_game": IfpaBounds(1, 100, TGP),
    "tgp_ceiling_percent": IfpaBounds(1, 1000, TGP),
    "tgp_ceiling_with_finals_percent": IfpaBounds(1, 1000, IfpaSource(TGP.rule, TGP_FINALS_URL)),
    "fee_cents_per_player": IfpaBounds(0, 100_000, IfpaSource(FEE.rule, GLOBAL_FEE_URL)),
}
"""The bounds of every number of `IfpaParameters` (the currency is a 3-letter code)."""

IFPA_DEFAULTS = IfpaParameters()
"""The IFPA's figures as its pages give them."""


def ifpa_parameters(overrides: dict[str, int | str]) -> IfpaParameters:
    """`IfpaParameters` with some figures replaced; RuleError for an unknown name."""
    known = {f.name for f in fields(IfpaParameters)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise RuleError(f"unknown IFPA parameter {', '.join(unknown)}")
    return IfpaParameters(**overrides)  # type: ignore[arg-type]


def ifpa_figure_value(name: str, text: str) -> int | str:
    """An IFPA figure as an official typed it: a whole number, or the fee's 3-letter currency
    (upper-cased). RuleError with a plain message for an unknown figure, a value that is not
    a whole number, or one outside its bounds (`PARAMETER_BOUNDS`)."""
    typed = text.strip()
    if name == "fee_currency":
        value: int | str = typed.upper()
    elif name in PARAMETER_BOUNDS:
        if not typed.isdigit():
            raise RuleError(f"{name} is a whole number, not {typed!r}")
        value = int(typed)
    else:
        raise RuleError(f"no IFPA figure is called {name!r}")
    IfpaParameters(**{name: value})  # type: ignore[arg-type]
    return value


def ifpa_overrides(parameters: IfpaParameters) -> dict[str, int | str]:
    """The figures of `parameters` that differ from the IFPA's, as stored (JSON)."""
    return {
        f.name: getattr(parameters, f.name)
        for f in fields(IfpaParameters)
        if getattr(parameters, f.name) != getattr(IFPA_DEFAULTS, f.name)
    }


@dataclass(frozen=True)
class IfpaGames:
    """Games a player plays in one meet or one playoff round, and how many play each game."""

    games: int
    players: int

    def __post_init__(self) -> None:
        check_count(self.games, what="games")
        check_count(self.players, what="players in a game", minimum=1)

    @property
    def meaningful(self) -> Fraction:
        """The TGP guide's meaningful games: each game counts players / 2 (a 4-player game
        twice, a 3-player game 1.5 times, a 2-player game once)."""
        return Fraction(self.games * self.players, 2)


@dataclass(frozen=True)
class IfpaSeasonFacts:
    """What the checks read, as plain numbers.

    meets_scheduled: the season's planned meets (R2-a); meets_held: closed so far;
    meets_counted: held meets whose points count (FWPL: all, R6.1-d). attended: each member's
    meets attended, for the 50% rule. members: players entered. finalists: players in the
    playoffs (or the number the rules will qualify). direct_play: the regular season and the
    finals are played head-to-head in groups (FWPL: always, R4.1-a, R6.3-a). meets: one
    `IfpaGames` per meet held (or planned) as its winner plays it; finals: the playoff rounds
    the winner of the top division plays. post_finals: the results submitted are the
    post-finals ones (so the finals' games count). planned: the checks read the schedule.
    """

    meets_scheduled: int
    meets_held: int
    meets_counted: int
    attended: tuple[int, ...]
    members: int
    finalists: int
    direct_play: bool
    meets: tuple[IfpaGames, ...]
    finals: tuple[IfpaGames, ...] = ()
    post_finals: bool = False
    planned: bool = False

    def __post_init__(self) -> None:
        check_count(self.meets_scheduled, what="meets scheduled")
        held = check_count(self.meets_held, what="meets held")
        if check_count(self.meets_counted, what="meets counted") > held:
            raise RuleError(f"{self.meets_counted} meets counted, more than the {held} held")
        check_count(self.members, what="members")
        if check_count(self.finalists, what="finalists") > self.members:
            raise RuleError(f"{self.finalists} finalists, more than the {self.members} members")
        for count in self.attended:
            if check_count(count, what="meets attended") > held:
                raise RuleError(f"a member attended {count} meets, more than the {held} held")


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


GAMES_PER_MATCH = 4
"""R3.3-b: a group's match is four games."""
PLAYOFF_GAMES = 3
"""R6.3-c: every playoff match is three games."""


def ifpa_finalists(members: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """The players the playoffs will take (§6.1; `playoff_qualifier_count`); every player of
    a league smaller than the rulebook's six, whose format the LO decides (A03)."""
    check_count(members, what="members")
    if members < MIN_PLAYERS:
        return members
    return playoff_qualifier_count(members, ruleset=ruleset)


def ifpa_finals_games(finalists: int, *, bracket: int | None = None) -> tuple[IfpaGames, ...]:
    """The playoff rounds the top seed plays to win the first division: the final alone in a
    4-bracket, a semifinal and the final otherwise (seeds 1-4 skip a 12-bracket's
    quarterfinals, R6.3-i); each round three games of four (R6.3-c). bracket: the first
    division's, once drawn; else the one `finalists` make (§6.1). () below two finalists."""
    if bracket is None:
        if finalists < 2:
            return ()
        bracket = divisions_for_qualifiers(finalists)[0].bracket
    rounds = 1 if bracket <= 4 else 2
    return (IfpaGames(PLAYOFF_GAMES, 4),) * rounds


def held_meets(meets: Sequence[MeetFacts]) -> tuple[MeetFacts, ...]:
    """The meets held: the closed ones (R2-a, `flipwell.rules.progress`). The meet being
    played is not held yet: its attendance and games are still provisional."""
    return tuple(meet for meet in meets if meet.closed)


def ifpa_meet_games(meet: MeetFacts) -> IfpaGames:
    """The games a meet's winner played, as the TGP counts them: the largest group's games
    (a match is four games, R3.3-b; most groups are fours, R4.1-a)."""
    if not meet.groups:
        return IfpaGames(0, 1)
    group = max(meet.groups, key=lambda g: (len(g.players), len(g.games)))
    return IfpaGames(len(group.games), len(group.players))


def planned_ifpa_facts(
    *, number_of_meets: int, members: int, ruleset: Ruleset = FWPL_V1
) -> IfpaSeasonFacts:
    """The facts of a season not yet begun, read from its schedule (R2-a): every meet played
    in groups of four (R4.1-a; threes below four players) and counted (R6.1-d), the finalists
    the rules will qualify (§6.1)."""
    check_count(number_of_meets, what="number of meets")
    finalists = ifpa_finalists(members, ruleset=ruleset)
    return IfpaSeasonFacts(
        meets_scheduled=number_of_meets,
        meets_held=0,
        meets_counted=0,
        attended=(0,) * members,
        members=members,
        finalists=finalists,
        direct_play=True,
        meets=(IfpaGames(GAMES_PER_MATCH, min(4, max(members, 1))),) * number_of_meets,
        finals=ifpa_finals_games(finalists),
        planned=True,
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
