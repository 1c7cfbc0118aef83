"""Forms of a season's players: register one, or import a roster CSV."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import limits
from flipwell.league.players_csv import PlayersCsvError, roster_problems
from flipwell.web.forms.fields import id_field


class RegisterPlayerForm(forms.Form):
    first_name = forms.CharField(max_length=limits.NAME_LENGTH)
    last_name = forms.CharField(max_length=limits.NAME_LENGTH)
    ifpa_number = forms.IntegerField(
        label="IFPA number",
        required=False,
        min_value=limits.IFPA.minimum,
        max_value=limits.IFPA.maximum,
    )
    ifpa_rank = forms.IntegerField(
        label="IFPA rank",
        required=False,
        min_value=limits.IFPA.minimum,
        max_value=limits.IFPA.maximum,
    )
    joined_at_meet = forms.IntegerField(
        label="Joins at meet",
        min_value=limits.MEET_NUMBER.minimum,
        max_value=limits.MEET_NUMBER.maximum,
        required=False,
        help_text="Leave empty: the next meet not yet started (R2.4-f).",
    )


class EditPlayerForm(forms.Form):
    """A roster player's name and IFPA number, as corrected by an official."""

    player = id_field("player")
    first_name = forms.CharField(max_length=limits.NAME_LENGTH)
    last_name = forms.CharField(max_length=limits.NAME_LENGTH)
    ifpa_number = forms.IntegerField(
        label="IFPA number",
        required=False,
        min_value=limits.IFPA.minimum,
        max_value=limits.IFPA.maximum,
        help_text="Empty: none.",
    )


class PlayersCsvForm(forms.Form):
    csv_file = forms.FileField(label="IFPA CSV file", required=False)
    csv_text = forms.CharField(
        label="…or paste the CSV", required=False, widget=forms.Textarea(attrs={"rows": 5})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("csv_file")
        if upload is not None:
            try:
                data["csv_text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("csv_file", "The file is not UTF-8 text: save it as CSV (UTF-8).")
        text = data.get("csv_text") or ""
        if not self.errors and not text.strip():
            self.add_error(None, "Choose a CSV file or paste its text.")
        elif not self.errors:
            for problem in csv_problems(text):
                self.add_error(None, problem)
        return data


def csv_problems(text: str) -> list[str]:
    """Every bad line of a roster CSV as a message naming its line (and column): the league's
    roster check, `flipwell.league.players_csv.roster_problems`, which the API uses too."""
    return [_problem_message(problem) for problem in roster_problems(text)]


def _problem_message(problem: PlayersCsvError) -> str:
    where = f"Line {problem.line}" + (f", column {problem.column}" if problem.column else "")
    return f"{where}: {problem.message}"


class MergePlayersForm(forms.Form):
    """Two people of the league to record as one person, and why (issue #13)."""

    kept = forms.TypedChoiceField(label="Keep this player's record", coerce=int)
    merged = forms.TypedChoiceField(label="Merge this player into it", coerce=int)
    reason = forms.CharField(
        max_length=limits.TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why they are one person (recorded with your name).",
    )

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        blank = [("", "Choose a player")]
        self.fields["kept"].choices = blank + choices  # type: ignore[attr-defined]
        self.fields["merged"].choices = blank + choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kept") is not None and data.get("kept") == data.get("merged"):
            self.add_error("merged", "Choose two different players.")
        return data


class UndoMergeForm(forms.Form):
    """Why a merge is undone."""

    merge = id_field("merge")
    reason = forms.CharField(max_length=limits.TEXT_LENGTH, label="Why undo it")
