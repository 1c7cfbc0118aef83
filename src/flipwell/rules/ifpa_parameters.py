"""The IFPA's figures for leagues, each with the page it was read from, and an official's overrides.

Words:
- *figure*: one number of the IFPA's rules for leagues (sessions, attendance share, direct
  play size, finals share, TGP, fee); a field of `IfpaParameters` whose default is the IFPA's.
- *source*: the IFPA rule a figure and its check come from (`IfpaSource`): its words and page.
- *bounds*: the whole numbers a figure may take (`IfpaBounds`).
- *override*: a figure an official changed from the IFPA's, stored as JSON.

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
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

from flipwell.rules.errors import RuleError

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
