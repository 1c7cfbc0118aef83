"""Forms of a season's players: register one, or import a roster CSV."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.league.players_csv import PlayersCsvError, roster_problems
from flipwell.league.selectors import form_rows
from flipwell.web.forms.fields import HiddenRowField, LineField, player_row_field


class RegisterPlayerForm(forms.Form):
    first_name = LineField(max_length=limits.NAME_LENGTH)
    last_name = LineField(max_length=limits.NAME_LENGTH)
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
    """A roster player's name and IFPA number, as corrected by an official; the player (hidden)
    cleans into one of the season's players."""

    first_name = LineField(max_length=limits.NAME_LENGTH)
    last_name = LineField(max_length=limits.NAME_LENGTH)
    ifpa_number = forms.IntegerField(
        label="IFPA number",
        required=False,
        min_value=limits.IFPA.minimum,
        max_value=limits.IFPA.maximum,
        help_text="Empty: none.",
    )

    def __init__(self, *args: Any, season: m.Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = form_rows.season_players(season)
        self.fields["player"] = HiddenRowField("player", players)
        self.order_fields(["player"])


NUL = "\x00"


def _too_long_message(what: str, *, size: int | None = None) -> str:
    """Why a roster CSV over `limits.ROSTER_CSV_LENGTH` is refused (with its size in MB when
    known): a roster is far smaller, so it is likely the wrong file."""
    megabytes = f" is {size / 1_000_000:.1f} MB:" if size is not None else " is too long:"
    limit = limits.ROSTER_CSV_LENGTH // 1_000_000
    return (
        f"{what}{megabytes} a roster CSV may be at most {limit} MB (some 30,000 players). "
        "Check that it is the roster file."
    )


MAX_PROBLEMS_SHOWN = 20
"""The bad lines a roster upload lists; past them, how many more (a whole file of bad lines
would make a page as large as the file)."""


class _CsvTextarea(forms.Textarea):
    """The pasted CSV, shown again when the form is refused, unless it is over the limit:
    a refused megabyte is not sent back to the phone that pasted it."""

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, str) and len(value) > limits.ROSTER_CSV_LENGTH:
            return ""
        return super().format_value(value)


class PlayersCsvForm(forms.Form):
    """A roster CSV, uploaded or pasted: at most `limits.ROSTER_CSV_LENGTH` (as the API's
    import), UTF-8 text without NUL; each bad line is named (the first `MAX_PROBLEMS_SHOWN`)."""

    csv_file = forms.FileField(label="Roster CSV file", required=False)
    csv_text = forms.CharField(
        label="…or paste the CSV",
        required=False,
        max_length=limits.ROSTER_CSV_LENGTH,
        error_messages={"max_length": _too_long_message("The pasted text")},
        widget=_CsvTextarea(attrs={"rows": 5}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("csv_file")
        if upload is not None:
            data["csv_text"] = self._read(upload)
        text = data.get("csv_text") or ""
        if self.errors:
            return data
        if NUL in text:
            line = text.count("\n", 0, text.index(NUL)) + 1
            self.add_error(
                "csv_file" if upload is not None else "csv_text",
                f"Line {line} holds a NUL character (code 0), which is not CSV text: save the "
                "roster again as CSV (UTF-8) and upload that file.",
            )
        elif not text.strip():
            self.add_error(None, "Choose a CSV file or paste its text.")
        else:
            problems = csv_problems(text)
            for problem in problems[:MAX_PROBLEMS_SHOWN]:
                self.add_error(None, problem)
            if len(problems) > MAX_PROBLEMS_SHOWN:
                more = len(problems) - MAX_PROBLEMS_SHOWN
                self.add_error(None, f"…and {more} more bad lines: fix these first.")
        return data

    def _read(self, upload: Any) -> str:
        """The uploaded file's text ("" with an error on the field when it is too large or
        not UTF-8); a file over the limit is not read at all."""
        if upload.size > limits.ROSTER_CSV_LENGTH:
            self.add_error("csv_file", _too_long_message("The file", size=upload.size))
            return ""
        try:
            text: str = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            self.add_error("csv_file", "The file is not UTF-8 text: save it as CSV (UTF-8).")
            return ""
        return text


def csv_problems(text: str) -> list[str]:
    """Every bad line of a roster CSV as a message naming its line (and column): the league's
    roster check, `flipwell.league.players_csv.roster_problems`, which the API uses too."""
    return [_problem_message(problem) for problem in roster_problems(text)]


def _problem_message(problem: PlayersCsvError) -> str:
    where = f"Line {problem.line}" + (f", column {problem.column}" if problem.column else "")
    return f"{where}: {problem.message}"


class MergePlayersForm(forms.Form):
    """Two people of the league to record as one person, and why; each cleans into the Player
    (of those offered, the league's)."""

    reason = forms.CharField(
        max_length=limits.TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why they are one person (recorded with your name).",
    )

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, label in (
            ("kept", "Keep this player's record"),
            ("merged", "Merge this player into it"),
        ):
            self.fields[name] = player_row_field(choices, label, blank="Choose a player")
        self.order_fields(["kept", "merged"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kept") is not None and data.get("kept") == data.get("merged"):
            self.add_error("merged", "Choose two different players.")
        return data


class UndoMergeForm(forms.Form):
    """Why a merge is undone. The merge (hidden) cleans into its row; the service refuses one
    the official may not undo (a merge of players of another league)."""

    merge = HiddenRowField("merge", form_rows.player_merges())
    reason = forms.CharField(max_length=limits.TEXT_LENGTH, label="Why undo it")
