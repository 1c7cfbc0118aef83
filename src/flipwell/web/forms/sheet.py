"""Forms of a group's score sheet: enter a game's scores, confirm them, choose the next machine."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.web.forms.fields import (
    PlayerChoices,
    ScoreField,
    id_field,
    player_field,
    row_choice_field,
)

STALE_PAGE = (
    "This entry does not say which game and which version of its sheet it was made on: "
    "it was not saved. Reload the sheet and enter the scores again."
)


class ScoreEntryForm(forms.Form):
    """A game's sheet: who enters it, each player's score or no score, the tie places; and
    which game and which version of its sheet (0: none yet) the phone showed."""

    idempotency_key = forms.CharField(max_length=limits.KEY_LENGTH, widget=forms.HiddenInput)
    game = id_field("game", required=False)
    seen_version = forms.IntegerField(
        min_value=0, max_value=limits.ID.maximum, required=False, widget=forms.HiddenInput
    )

    def __init__(
        self,
        *args: Any,
        players: PlayerChoices,
        forfeits: frozenset[int],
        enterers: PlayerChoices | None = None,
        absent: frozenset[int] = frozenset(),
        **kwargs: Any,
    ) -> None:
        """`enterers`: who may enter the sheet (default every player of `players`); `absent`:
        the players absent for the rest of the match, whose score box the page does not show
        (their score is refused)."""
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.forfeits = forfeits | absent
        self.absent = absent
        self.fields["entered_by"] = player_field(
            players if enterers is None else enterers, "Entered by (you)"
        )
        for pid, name in self.players:
            self.fields[f"score_{pid}"] = ScoreField(label=f"{name}’s score")
            self.fields[f"forfeit_{pid}"] = forms.BooleanField(
                label="No score (forfeit)", required=False
            )
            self.fields[f"tie_{pid}"] = forms.IntegerField(
                label="Place in the tie playoff",
                required=False,
                min_value=limits.TIE_PLACE.minimum,
                max_value=limits.TIE_PLACE.maximum,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tie-input"}),
            )

    def rows(self) -> list[tuple[int, str, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (pid, name, self[f"score_{pid}"], self[f"forfeit_{pid}"], self[f"tie_{pid}"])
            for pid, name in self.players
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("game") is None or data.get("seen_version") is None:
            raise ValidationError(STALE_PAGE, code="stale_page")
        for pid, name in self.players:
            score = data.get(f"score_{pid}")
            no_score = data.get(f"forfeit_{pid}") or pid in self.forfeits
            if pid in self.absent and score is not None:
                self.add_error(
                    f"score_{pid}",
                    f"{name} is absent for the rest of the match: this game is their forfeit, "
                    "so it takes no score.",
                )
            elif no_score and score is not None:
                self.add_error(
                    f"score_{pid}",
                    f"{name} is marked as not playing (a forfeit): clear the score or the box.",
                )
            elif not no_score and score is None and f"score_{pid}" not in self.errors:
                self.add_error(
                    f"score_{pid}",
                    f"Type {name}’s score, or tick “No score” if they did not play.",
                )
        return data

    def scores(self) -> dict[m.Player | int, int | None]:
        found: dict[m.Player | int, int | None] = {}
        for pid, score in self._scores().items():
            found[pid] = score
        return found

    def _scores(self) -> dict[int, int | None]:
        data = self.cleaned_data
        return {
            pid: None
            if data.get(f"forfeit_{pid}") or pid in self.forfeits
            else data[f"score_{pid}"]
            for pid, _ in self.players
        }

    def tie_order(self) -> list[list[int]]:
        """Players on equal scores, ordered by the places typed (a tie without places is left
        to the service, which names the tied players)."""
        by_score: dict[int, list[int]] = {}
        for pid, score in self._scores().items():
            if score is not None:
                by_score.setdefault(score, []).append(pid)
        orders = []
        for tied in by_score.values():
            places = [self.cleaned_data.get(f"tie_{p}") for p in tied]
            if len(tied) > 1 and all(place is not None for place in places):
                orders.append([p for _, p in sorted(zip(places, tied, strict=True))])
        return orders


class ConfirmForm(forms.Form):
    """Another player of the group confirms the entered sheet."""

    submission = id_field("score entry")

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["confirmed_by"] = player_field(players, "Confirmed by (you)")


class PhotoForm(forms.Form):
    """A photo of the machine's display for one of the group's games, and who took it (may be
    left unsaid). The file is checked by decoding it (`flipwell.league.photos`), never by its
    name or the type the phone sent."""

    game = id_field("game")
    # Made by the phone's script for one photo: sent again after a lost answer, kept once.
    idempotency_key = forms.CharField(
        max_length=limits.KEY_LENGTH, required=False, widget=forms.HiddenInput
    )
    photo = forms.FileField(
        label="Photo of the score",
        widget=forms.FileInput(attrs={"accept": "image/*", "capture": "environment"}),
        error_messages={
            "required": "Choose or take a photo of the machine's score display.",
            "empty": "This photo is empty: take it again.",
        },
    )

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["uploaded_by"] = player_field(
            players, "Taken by", blank="(no need to say)", required=False, empty_value=None
        )


class NextMachineForm(forms.Form):
    """The picker chooses the next game's machine."""

    chosen_by = id_field("player")

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = row_choice_field("machine", machines, label="Next machine")


class PlayoffEntryForm(ScoreEntryForm):
    """A playoff game's sheet: every present player has a machine score (no forfeits in a
    playoff game); `game` carries the game's number (the tiebreaker's is 4)."""

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, players=players, forfeits=frozenset(), **kwargs)
        for pid, _ in self.players:
            del self.fields[f"forfeit_{pid}"]

    def rows(self) -> list[tuple[int, str, forms.BoundField, Any, forms.BoundField]]:
        return [
            (pid, name, self[f"score_{pid}"], None, self[f"tie_{pid}"])
            for pid, name in self.players
        ]

    def clean(self) -> dict[str, Any]:
        data = forms.Form.clean(self) or {}
        if data.get("game") is None or data.get("seen_version") is None:
            raise ValidationError(STALE_PAGE, code="stale_page")
        for pid, name in self.players:
            if data.get(f"score_{pid}") is None and f"score_{pid}" not in self.errors:
                self.add_error(f"score_{pid}", f"Type {name}’s score.")
        return data

    def _scores(self) -> dict[int, int | None]:
        return {pid: self.cleaned_data[f"score_{pid}"] for pid, _ in self.players}

    def machine_scores(self) -> dict[m.Player | int, int]:
        return {pid: self.cleaned_data[f"score_{pid}"] for pid, _ in self.players}


class PlayoffStartForm(forms.Form):
    """Start the match's next game: who starts it (the loser, for games 2 and 3, R6.4-c) and,
    when the loser picks, the machine."""

    def __init__(
        self, *args: Any, players: PlayerChoices, machines: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["started_by"] = player_field(players, "You are")
        if machines:
            self.fields["machine"] = row_choice_field("machine", machines, label="Next machine")
