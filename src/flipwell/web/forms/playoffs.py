"""Forms of the playoff night: qualification, seed and tie playoffs, games, no-shows. Each
cleans into its service's keyword arguments (players and machines as rows of those offered;
the places of an order, or the scores of a game, folded into the one argument), bar the
season and the actor the view adds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from flipwell.league import limits
from flipwell.league.selectors import form_rows, lookups
from flipwell.web.forms.fields import (
    PlayerChoices,
    ScoreField,
    date_input,
    player_field,
    player_row_field,
    reason_field,
    row_field,
)


def _machine_field(machines: PlayerChoices, label: str, blank: str) -> forms.TypedChoiceField:
    return row_field(
        "machine",
        machines,
        form_rows.machines(),
        label=label,
        blank=blank,
        required=False,
        empty_value=None,
    )


class QualifyForm(forms.Form):
    date = forms.DateField(label="Playoff night", widget=date_input())
    cut = forms.IntegerField(
        label="Override the number of qualifiers",
        required=False,
        min_value=limits.QUALIFIERS.minimum,
        max_value=limits.QUALIFIERS.maximum,
    )
    cut_reason = reason_field("Why override the cut?", required=False)


class OrderForm(forms.Form):
    """Tied players in finishing order (winner first), as one select per place; cleans into
    ``order`` (the players, winner first) and ``machine``."""

    def __init__(
        self, *args: Any, players: PlayerChoices, places: int, machines: PlayerChoices,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        for place in range(1, places + 1):
            self.fields[f"place_{place}"] = player_field(
                players, f"Place {place}", required=place <= 2
            )
        self.fields["machine"] = _machine_field(machines, "Machine", "Draw one at random")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        places = [k for k in data if k.startswith("place_")]
        found = [data.pop(k) for k in places]
        found = [pk for pk in found if pk]
        if len(set(found)) != len(found):
            raise ValidationError("A player is listed twice.")
        rows = lookups.players_by_id(found)
        data["order"] = [rows[pk] for pk in found]
        return data


class MatchForm(forms.Form):
    """Which match of which division."""

    division = forms.CharField(max_length=4)
    match = forms.CharField(max_length=8)


class TiebreakerForm(MatchForm, OrderForm):
    """A match's tiebreaker game (R6.5-a): the tied players' order, and its machine."""


class StartPlayoffGameForm(MatchForm):
    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = _machine_field(
            machines, "Machine (the chooser's pick; empty for game 1: drawn)", "Draw at random"
        )


class PlayoffScoresForm(MatchForm):
    """A playoff game's machine scores, with the tie places for equal scores; cleans into
    ``scores`` (player -> score) and ``tie_orders`` (each set of equal scores in the places
    given)."""

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for pid, name in self.players:
            self.fields[f"score_{pid}"] = ScoreField(label=f"{name}’s score")
            self.fields[f"tie_{pid}"] = forms.IntegerField(
                label="Tie place",
                required=False,
                min_value=limits.TIE_PLACE.minimum,
                max_value=limits.TIE_PLACE.maximum,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        typed = {pid: data.pop(f"score_{pid}", None) for pid, _ in self.players}
        tie_places = {pid: data.pop(f"tie_{pid}", None) for pid, _ in self.players}
        scores = {pid: s for pid, s in typed.items() if s is not None}
        rows = lookups.players_by_id(scores)
        data["scores"] = {rows[pid]: s for pid, s in scores.items()}
        data["tie_orders"] = [
            [rows[pid] for pid in order] for order in _tie_orders(scores, tie_places)
        ]
        return data


def _tie_orders(scores: dict[int, int], places: dict[int, int | None]) -> list[list[int]]:
    """Each set of players with equal scores, in the tie places given (all of them given)."""
    by_score: dict[int, list[int]] = {}
    for pid, score in scores.items():
        by_score.setdefault(score, []).append(pid)
    orders = []
    for tied in by_score.values():
        given = [places[p] for p in tied]
        if len(tied) > 1 and all(p is not None for p in given):
            orders.append([p for _, p in sorted(zip(given, tied, strict=True))])
    return orders


class NoShowForm(MatchForm):
    note = forms.CharField(required=False, max_length=limits.TEXT_LENGTH)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_row_field(players, "Player not present")


class WithdrawalForm(forms.Form):
    note = forms.CharField(required=False, max_length=limits.TEXT_LENGTH)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_row_field(players, "Player withdrawing")
        self.order_fields(["player"])
