"""Forms of score corrections (§3): a player's request on the sheet, an official's in the
console, and the asked players' answers (A45)."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.league.selectors import form_rows
from flipwell.web.forms.fields import (
    HiddenRowField,
    PlayerChoices,
    ScoreField,
    player_field,
    player_row_field,
    reason_field,
    row_choice_field,
)


class CorrectionRequestForm(forms.Form):
    """A scoring error in a confirmed game: the right scores of the wrong lines, and why."""

    reason = forms.CharField(
        label="What was recorded wrongly?",
        max_length=limits.TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    # No override reason: a sheet link never overrides (its meet is open; after the close an
    # official corrects in the console, A45.2).

    def __init__(
        self, *args: Any, players: PlayerChoices, games: PlayerChoices, **kwargs: Any
    ) -> None:
        # The score sheet shows this form beside the entry form, whose fields have the same
        # names (game, score_<player>): ids of their own keep each label on its own field.
        kwargs.setdefault("auto_id", "id_correction_%s")
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.fields["game"] = row_choice_field("game", games, label="Game", blank=None)
        self.fields["requested_by"] = player_field(players, "Requested by (you)")
        for pid, name in self.players:
            self.fields[f"score_{pid}"] = ScoreField(
                label=f"{name}’s right score", help_text="Leave empty when it was right."
            )
        self.order_fields(["game", "requested_by"])

    def score_fields(self) -> list[forms.BoundField]:
        return [self[f"score_{pid}"] for pid, _ in self.players]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and not self.scores():
            self.add_error(None, "Type the right score of at least one player.")
        return data

    def scores(self) -> dict[m.Player | int, int]:
        found = {pid: self.cleaned_data.get(f"score_{pid}") for pid, _ in self.players}
        return {pid: score for pid, score in found.items() if score is not None}


class CorrectionAnswerForm(forms.Form):
    """One asked player's answer to a correction."""

    agrees = forms.TypedChoiceField(
        choices=[("yes", "Agree"), ("no", "Disagree")], coerce=lambda v: v == "yes"
    )

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_field(players, "Answering player")


class ConsoleCorrectionForm(forms.Form):
    """An official's correction: in a closed meet it needs their override reason (A45.2).
    Cleans the right scores typed into ``scores`` (player id -> score)."""

    reason = reason_field("What was recorded wrongly?")
    override_reason = reason_field(
        "Override reason (closed meet only)", required=False, empty_value=None
    )

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.fields["requested_by"] = player_row_field(players, "Requested by")
        for pid, name in self.players:
            self.fields[f"score_{pid}"] = ScoreField(
                label=f"{name}’s right score", help_text="Empty: unchanged."
            )
        self.order_fields(["requested_by"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        typed = {pid: data.pop(f"score_{pid}", None) for pid, _ in self.players}
        data["scores"] = {pid: score for pid, score in typed.items() if score is not None}
        return data


class AnswerForm(forms.Form):
    """One asked player's answer to a correction of the meet (both hidden)."""

    agrees = forms.TypedChoiceField(
        choices=[("yes", "Agrees"), ("no", "Disagrees")], coerce=lambda v: v == "yes"
    )

    def __init__(self, *args: Any, meet: m.Meet, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        corrections = form_rows.meet_corrections(meet)
        self.fields["request"] = HiddenRowField("correction", corrections)
        self.fields["player"] = HiddenRowField("player", form_rows.players())
