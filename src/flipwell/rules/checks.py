"""Input checks shared by the rules: each failure is a `RuleError` naming the bad value.

Words: `what` names the value in the message; when it names a player, it says `{player}` and
`player` gives his key, so the error is structured (`RuleError.about`) and a front end writes
him by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from flipwell.rules.errors import RuleError, about_player


def check_player(player: object) -> str:
    """A player identifier: a non-empty string."""
    if not isinstance(player, str) or not player.strip():
        raise RuleError(f"player must be a non-empty string, got {player!r}")
    return player


def _refusal(what: str, rest: str, got: str, player: str | None) -> RuleError:
    """ "`what` `rest`, got `got`", structured when `what` names `player`."""
    if player is None:
        return RuleError(f"{what} {rest}, got {got}")
    return about_player(what + " " + rest + ", got {got}", player, got=got)


def check_score(score: object, *, what: str = "score", player: str | None = None) -> int:
    """A machine score: a non-negative int of any size (scores above 10**12 are real)."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise _refusal(what, "must be a non-negative integer", repr(score), player)
    if score < 0:
        raise _refusal(what, "must be a non-negative integer", str(score), player)
    return score


def check_count(value: object, *, what: str, minimum: int = 0, player: str | None = None) -> int:
    """A whole number of things (players, balls, games) at least `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _refusal(what, f"must be an integer of at least {minimum}", repr(value), player)
    return value


def check_points(
    value: object, *, what: str = "league points", player: str | None = None
) -> Fraction:
    """League points: a non-negative exact number (int, Fraction or Decimal; never a float)."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction | Decimal):
        raise _refusal(what, "must be a non-negative int or Fraction", repr(value), player)
    if isinstance(value, Decimal) and not value.is_finite():
        raise _refusal(what, "must be a finite number", str(value), player)
    exact = Fraction(value)
    if exact < 0:
        raise _refusal(what, "must not be negative", str(value), player)
    return exact


def check_unique(players: Iterable[str], *, what: str) -> list[str]:
    """Players listed at most once each."""
    listed = list(players)
    try:  # the usual case, checked without a step per player: distinct, non-blank strings
        if len(set(listed)) == len(listed) and all(map(str.strip, listed)):
            return listed
    except TypeError:  # an entry that is no string: the loop below names it
        pass
    seen: set[str] = set()
    for player in listed:
        check_player(player)
        if player in seen:
            raise about_player("{player} appears twice in {what}", player, what=what)
        seen.add(player)
    return listed


def fmt(number: int | Fraction) -> str:
    """A number as a person reads it: thousands separators, fractions as 19.75 or 39/7."""
    if isinstance(number, Fraction):
        if number.denominator == 1:
            return f"{number.numerator:,}"
        decimal = Decimal(number.numerator) / Decimal(number.denominator)
        if Fraction(decimal) == number:
            return f"{decimal:,}"
        return f"{number.numerator}/{number.denominator}"
    return f"{number:,}"


def points_phrase(points: int | Fraction) -> str:
    """'1 point', '7 points', '19.75 points'."""
    return f"{fmt(points)} point" if points == 1 else f"{fmt(points)} points"
