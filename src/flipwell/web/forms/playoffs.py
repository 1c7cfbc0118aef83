"""Forms of the playoff night: qualification, seed and tie playoffs, games, no-shows."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from flipwell.league import limits
from flipwell.web.forms.fields import (
    PlayerChoices,
    ScoreField,
    date_input,
    player_field,
    reason_field,
    row_choice_field,
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
    """Tied players in finishing order (winner first), as one select per place."""

    def __init__(
        self, *args: Any, players: PlayerChoices, places: int, machines: PlayerChoices,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        for place in range(1, places + 1):
            self.fields[f"place_{place}"] = player_field(
                players, f"Place {place}", required=place <= 2
            )
        self.fields["machine"] = row_choice_field(
            "machine",
            machines,
            label="Machine",
            blank="Draw one at random",
            required=False,
            empty_value=None,
        )

    def order(self) -> list[int]:
        found = [v for k, v in self.cleaned_data.items() if k.startswith("place_") and v]
        if len(set(found)) != len(found):
            raise ValidationError("A player is listed twice.")
        return found


class MatchForm(forms.Form):
    """Which match of which division."""

    division = forms.CharField(max_length=4)
    match = forms.CharField(max_length=8)


class StartPlayoffGameForm(MatchForm):
    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = row_choice_field(
            "machine",
            machines,
            label="Machine (the chooser's pick; empty for game 1: drawn)",
            blank="Draw at random",
            required=False,
            empty_value=None,
        )


class PlayoffScoresForm(MatchForm):
    """A playoff game's machine scores, with the tie places for equal scores."""

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

    def scores(self) -> dict[int, int]:
        found = {pid: self.cleaned_data.get(f"score_{pid}") for pid, _ in self.players}
        return {pid: s for pid, s in found.items() if s is not None}

    def tie_orders(self) -> list[list[int]]:
        by_score: dict[int, list[int]] = {}
        for pid, score in self.scores().items():
            by_score.setdefault(score, []).append(pid)
        orders = []
        for tied in by_score.values():
            places = [self.cleaned_data.get(f"tie_{p}") for p in tied]
            if len(tied) > 1 and all(p is not None for p in places):
                orders.append([p for _, p in sorted(zip(places, tied, strict=True))])
        return orders


class NoShowForm(MatchForm):
    note = forms.CharField(required=False, max_length=limits.TEXT_LENGTH)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_field(players, "Player not present")


class WithdrawalForm(forms.Form):
    note = forms.CharField(required=False, max_length=limits.TEXT_LENGTH)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_field(players, "Player withdrawing")
        self.order_fields(["player"])
