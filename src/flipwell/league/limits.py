"""The bounds of every number and text a person or a program enters, one set for the web forms
and the API schemas (`tests/league/test_limits.py` holds each pair of fields to them).

Words: a *bound* is the smallest and the largest value a number field accepts; a *length* is
the most characters a text field accepts. Where a rule decides a bound it is derived from the
rules (a match is four games, R4-b; the balls a player plays normally on a machine, R7.1-a);
elsewhere it is flipwell's: large enough for any real league, small enough that a typing
mistake is caught where it is typed rather than stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.league.models.machines import MAX_BALLS_PER_GAME
from flipwell.rules.extra_balls import allowable_extra_balls
from flipwell.rules.match import GAMES_PER_MATCH


@dataclass(frozen=True)
class Bound:
    """The smallest and largest whole number a field accepts."""

    minimum: int
    maximum: int


LAST_BALL = max(balls + allowable_extra_balls(balls) for balls in range(1, MAX_BALLS_PER_GAME + 1))
"""The last ball a player plays normally on any machine a league can hold: its balls (at most
`MAX_BALLS_PER_GAME`) and its allowable extra ball (R7.1-a, A50). A malfunction on a one-handed
extra ball is marked as such (R7.1-d), not numbered past these."""

MAX_MEETS = 60
"""The most regular meets a season has (a weekly league plays fewer than 53 a year)."""

MAX_GROUP_SIZE = 4
"""Players in a group (R3.1-a: groups of 4, threes at the bottom, A16); a tie place is 1..4."""

BALL = Bound(1, LAST_BALL)
"""A malfunction's ball number, 1 = first ball."""
GAMES_COMPLETED = Bound(0, GAMES_PER_MATCH)
"""A violation between games: how many of the match's games were completed (A27)."""
TARGET_GAME = Bound(1, GAMES_PER_MATCH)
"""The game of the match an official chooses for a penalty (A27.4)."""
MACHINE_SCORE = Bound(0, 10**15 - 1)
"""A machine score as entered: fifteen digits, a hundred times the highest scores known
(about 10**13); a longer number is a typing mistake, refused with a message to check it."""
MEET_NUMBER = Bound(1, MAX_MEETS)
"""A meet's number in its season (to schedule or start it, or to join a season at)."""
NUMBER_OF_MEETS = Bound(1, MAX_MEETS)
"""A season's regular meets."""
IFPA = Bound(1, 2**31 - 1)
"""An IFPA number or rank (the IFPA's own ids are 32-bit)."""
TIE_PLACE = Bound(1, MAX_GROUP_SIZE)
"""A player's place in a tie's one-ball playoff (R3.2-i)."""
SEED = Bound(0, 2**63 - 1)
"""A random draw's seed, kept so the draw can be repeated (R5-a, A23)."""
AMOUNT_CENTS = Bound(1, 10**9)
"""A ledger entry's amount in cents: ten million in money is more than a league holds."""
ID = Bound(1, 2**63 - 1)
"""A row's id, in a URL, a query string or a form: the databases' bigint range (a larger
number is no row of ours, and SQLite cannot even be asked about it)."""
PRICE_CENTS = Bound(0, 10**9)
"""A game's or a ball's price in cents (§8.3, §8.6)."""
QUALIFIERS = Bound(1, 1000)
"""An official's number of playoff qualifiers (A06)."""

ROSTER_CSV_LENGTH = 1_000_000
"""A roster CSV, pasted or sent to the API, in characters; an uploaded file, in bytes (1 MB:
some 30,000 players, far more than a league has, and read in a second or two)."""
NAME_LENGTH = 80
"""A player's first or last name."""
TITLE_LENGTH = 120
"""A machine title."""
PROBLEM_LENGTH = 200
"""A machine problem announced before play (R7.3-g)."""
TEXT_LENGTH = 2000
"""A reason, a note, a ruling's why: an official's words."""
RULING_TEXT_LENGTH = 10_000
"""A special ruling's text, reproduction, cause and effect (RA-e)."""
KEY_LENGTH = 100
"""An idempotency key."""
INVITEE_LENGTH = 254
"""The user name or e-mail address of an account an official invites (an e-mail address's
longest)."""
