"""Recorded tie orders: how a one-ball or single-ball playoff ordered players on equal values.

The software cannot play the playoff; it records the order it produced (§3.2 R3.2-i, A15 for
machine scores; §6.1 R6.1-e, A39 for season points) and checks that each recorded order is a
real, whole tie before using it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from flipwell.rules.checks import check_unique, fmt
from flipwell.rules.errors import RuleError, about_players, listed
from flipwell.rules.values import PlayerId


def tie_positions(
    values: Mapping[PlayerId, int | Fraction],
    orders: Sequence[Sequence[PlayerId]],
    *,
    what: str,
    unknown: str,
    quantity: str,
    unit: str = "",
    optional: Collection[PlayerId] = frozenset(),
) -> dict[PlayerId, int]:
    """Each listed player's position (0 = won) within his recorded tie order.

    values: the tied quantity per player who may take part; orders: the recorded orders,
    winner first; what: their name in messages ("tie order"); unknown: why a player outside
    `values` cannot be listed; quantity: what is tied ("machine scores"); unit: printed after
    a value ("" or " points"); optional: players who may be listed but need not be (e.g. a
    withdrawn player). Every order must list at least two players on one value, and every
    player on that value who is not optional.
    """
    if isinstance(orders, str):
        raise RuleError(f"{what}s must be a list of orders, got {orders!r}")
    positions: dict[PlayerId, int] = {}
    for order in orders:
        if isinstance(order, str):  # a bare string would be read letter by letter as players
            raise RuleError(f"a {what} must be a list of players, got {order!r}")
        players = check_unique(order, what=f"a {what}")
        if len(players) < 2:
            raise about_players(
                "{what} ({players}) must name at least two players with equal {quantity}",
                "players",
                players,
                what=what,
                quantity=quantity,
            )
        _check_listed(players, values, positions, what=what, unknown=unknown)
        tied_values = {values[p] for p in players}
        if len(tied_values) != 1:
            raise about_players(
                "{what} ({players}) groups players whose {quantity} differ",
                "players",
                players,
                what=what,
                quantity=quantity,
            )
        (value,) = tied_values
        tied = sorted(p for p, v in values.items() if v == value and p not in optional)
        if sorted(p for p in players if p not in optional) != tied:
            raise _incomplete(players, tied, what=what, tied_at=f"{fmt(value)}{unit}")
        positions.update({p: i for i, p in enumerate(players)})
    return positions


def _check_listed(
    players: Sequence[PlayerId],
    values: Mapping[PlayerId, int | Fraction],
    positions: Mapping[PlayerId, int],
    *,
    what: str,
    unknown: str,
) -> None:
    """Every player of a tie order may take part (`values`) and is in no earlier order."""
    for player in players:
        if player not in values:
            raise RuleError.about(
                "{what} names {player}, {unknown}",
                players={"player": player},
                values={"what": what, "unknown": unknown},
            )
        if player in positions:
            raise RuleError.about(
                "{player} appears in two {what}s",
                players={"player": player},
                values={"what": what},
            )


def _incomplete(
    players: Sequence[PlayerId], tied: Sequence[PlayerId], *, what: str, tied_at: str
) -> RuleError:
    """A recorded order that leaves out some of the players tied on its value."""
    listed_names, listed_fields = listed("listed", players, last=" and ")
    tied_names, tied_fields = listed("tied", tied, last=" and ")
    return RuleError.about(
        "{what} (" + listed_names + ") must list every player tied at {tied_at}: " + tied_names,
        players={**listed_fields, **tied_fields},
        values={"what": what, "tied_at": tied_at},
    )
