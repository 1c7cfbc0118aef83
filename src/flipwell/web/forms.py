"""Django forms of the score sheet and the console: they parse and check the shape of input
(a number is a number, a required field is there, a choice is one offered) and nothing more.
Whether a sheet scores, a player may pick, or an override stands is the services' call; their
`ValidationError` messages are put next to the field they name (`show_service_errors`).

Words: a *machine score* is typed as the digits 0-9, with or without one kind of thousands
separator between groups of three digits (``1,234,560``, ``1.234.560``, ``1 234 560``,
``1'234'560`` all read 1234560). Anything else is refused, not guessed: ``1.5`` may be a
decimal, ``١٢٣`` uses other digits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.players_csv import PlayersCsvError, parse_players_csv

# One separator, the same between every group of three digits: comma, full stop, apostrophe
# (straight or curly, as phones type it), space, no-break space, thin and narrow no-break space.
GROUPED_DIGITS = re.compile(
    r"[0-9]{1,3}(?:([,.'\u2019 \u00a0\u2009\u202f])[0-9]{3})(?:\1[0-9]{3})*", re.ASCII
)
DIGITS_AND_SEPARATORS = re.compile(r"[0-9,.'\u2019 \u00a0\u2009\u202f]+")
ASCII_DIGITS = re.compile(r"[0-9]+", re.ASCII)
MAX_SCORE = 10**15
PlayerChoices = Sequence[tuple[int, str]]


def parse_machine_score(raw: str, *, field: str = "") -> int | None:
    """A typed machine score as an int (None when blank); ValidationError naming `field`
    when it is not ASCII digits with optional thousands separators (see the words above)."""
    text = (raw or "").strip()
    if not text:
        return None
    name = f"{field}: " if field else ""
    if not (ASCII_DIGITS.fullmatch(text) or GROUPED_DIGITS.fullmatch(text)):
        raise ValidationError(name + _not_a_score(text), code="invalid")
    value = int(re.sub(r"[^0-9]", "", text))
    if value >= MAX_SCORE:
        raise ValidationError(
            f"{name}“{text}” has too many digits for a machine score: check it against the "
            "machine.",
            code="max_value",
        )
    return value


def _not_a_score(text: str) -> str:
    """Why `text` is not a machine score."""
    if any(c.isdigit() and not c.isascii() for c in text):
        return f"“{text}” is not a machine score: type it with the digits 0-9, like 1,234,560."
    if DIGITS_AND_SEPARATORS.fullmatch(text):
        return (
            f"“{text}” is not a whole machine score: type every digit the machine shows, like "
            "1,234,560 (a separator only between groups of three digits)."
        )
    return f"“{text}” is not a machine score: type digits only, like 1,234,560."


def show_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's ValidationError on the form: each message by the field it names, the
    rest (unknown or hidden fields, unkeyed messages) at the top of the form."""
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            shown = field in form.fields and not form.fields[field].widget.is_hidden
            for message in errors:
                form.add_error(field if shown else None, message)
    else:
        for message in error.messages:
            form.add_error(None, message)


def _player_field(players: PlayerChoices, label: str, **kwargs: Any) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label,
        choices=[("", "Choose…"), *[(str(p), name) for p, name in players]],
        coerce=int,
        **kwargs,
    )


def _score_widget() -> forms.TextInput:
    return forms.TextInput(
        attrs={
            "inputmode": "numeric",
            "pattern": r"[0-9 ,.']*",
            "autocomplete": "off",
            "class": "score-input",
            "data-score": "",
        }
    )


class ScoreField(forms.CharField):
    """A machine score as typed; `clean` returns an int or None."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 40)
        kwargs.setdefault("widget", _score_widget())
        super().__init__(**kwargs)

    def clean(self, value: Any) -> Any:
        return parse_machine_score(super().clean(value), field=str(self.label or ""))


# --- the score sheet -------------------------------------------------------------------------


STALE_PAGE = (
    "This entry does not say which game and which version of its sheet it was made on: "
    "it was not saved. Reload the sheet and enter the scores again."
)


class ScoreEntryForm(forms.Form):
    """A game's sheet: who enters it, each player's score or no score, the tie places; and
    which game and which version of its sheet (0: none yet) the phone showed."""

    idempotency_key = forms.CharField(max_length=100, widget=forms.HiddenInput)
    game = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    seen_version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, players: PlayerChoices, forfeits: frozenset[int], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.forfeits = forfeits
        self.fields["entered_by"] = _player_field(players, "Entered by (you)")
        for pid, name in self.players:
            self.fields[f"score_{pid}"] = ScoreField(label=f"{name}’s score")
            self.fields[f"forfeit_{pid}"] = forms.BooleanField(
                label="No score (forfeit)", required=False
            )
            self.fields[f"tie_{pid}"] = forms.IntegerField(
                label="Place in the tie playoff",
                required=False,
                min_value=1,
                max_value=4,
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
            if no_score and score is not None:
                self.add_error(
                    f"score_{pid}",
                    f"{name} is marked as not playing (a forfeit): clear the score or the box.",
                )
            elif not no_score and score is None and f"score_{pid}" not in self.errors:
                self.add_error(
                    f"score_{pid}",
                    f"Type {name}’s score, or tick “No score” if he did not play.",
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

    submission = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["confirmed_by"] = _player_field(players, "Confirmed by (you)")


class NextMachineForm(forms.Form):
    """The picker chooses the next game's machine."""

    chosen_by = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = forms.TypedChoiceField(
            label="Next machine",
            choices=[("", "Choose…"), *[(str(i), t) for i, t in machines]],
            coerce=int,
        )


class CorrectionRequestForm(forms.Form):
    """A scoring error in a confirmed game: the right scores of the wrong lines, and why."""

    reason = forms.CharField(
        label="What was recorded wrongly?", widget=forms.Textarea(attrs={"rows": 2})
    )
    # No override reason: a sheet link never overrides (its meet is open; after the close an
    # official corrects in the console, A45.2).

    def __init__(
        self, *args: Any, players: PlayerChoices, games: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.fields["game"] = forms.TypedChoiceField(
            label="Game", choices=[(str(i), t) for i, t in games], coerce=int
        )
        self.fields["requested_by"] = _player_field(players, "Requested by (you)")
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
        self.fields["player"] = _player_field(players, "Answering player")


# --- the console -----------------------------------------------------------------------------


def _date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"})


def _reason(label: str = "Why?", *, required: bool = True) -> forms.CharField:
    return forms.CharField(label=label, required=required, widget=forms.Textarea(attrs={"rows": 2}))


class MoneyField(forms.DecimalField):
    """An amount in the league's currency typed with cents (12.50); cleans to integer cents."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 10)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal(0))
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
        )
        super().__init__(**kwargs)

    def clean(self, value: Any) -> Any:
        amount = super().clean(value)
        return None if amount is None else int(amount * 100)


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120)
    weekday = forms.TypedChoiceField(choices=m.Weekday.choices, coerce=int)
    start_time = forms.TimeField(widget=forms.TimeInput(attrs={"type": "time"}))
    number_of_meets = forms.IntegerField(min_value=1, max_value=60)
    dues_cents = MoneyField(label="Dues", initial="0.00")


class RegisterPlayerForm(forms.Form):
    first_name = forms.CharField(max_length=80)
    last_name = forms.CharField(max_length=80)
    ifpa_number = forms.IntegerField(label="IFPA number", required=False, min_value=1)
    ifpa_rank = forms.IntegerField(label="IFPA rank", required=False, min_value=1)
    joined_at_meet = forms.IntegerField(
        label="Joins at meet",
        min_value=1,
        required=False,
        help_text="Leave empty: the next meet not yet started (R2.4-f).",
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
    """Every line of a roster CSV that cannot be read, each with its line number (the service
    stops at the first; an official fixing a file wants them all at once)."""
    lines = text.splitlines()
    if not lines:
        return []
    try:
        parse_players_csv(lines[0])
    except PlayersCsvError as error:
        return [str(error).capitalize()]
    problems = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            parse_players_csv(f"{lines[0]}\n{line}")
        except PlayersCsvError as error:
            where = f"Line {number}" + (f", column {error.column}" if error.column else "")
            problems.append(f"{where}: {error.message}")
    return problems


class ScheduleMeetForm(forms.Form):
    number = forms.IntegerField(min_value=1)
    date = forms.DateField(widget=_date_input())


def player_choice_form(players: PlayerChoices, label: str = "Player") -> type[forms.Form]:
    """A form with one player select."""
    return type("PlayerForm", (forms.Form,), {"player": _player_field(players, label)})


class StartMeetForm(forms.Form):
    """Start the meet: the ladder's groups, or the official's groups with his reason."""

    date = forms.DateField(required=False, widget=_date_input())
    seed = forms.IntegerField(
        label="Draw seed", required=False, min_value=0, help_text="Empty: a random draw."
    )
    override_reason = _reason("Why these groups instead of the ladder's?", required=False)

    def __init__(
        self, *args: Any, players: PlayerChoices, groups: Sequence[int], count: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        choices = [(str(n), f"Group {n}") for n in range(1, count + 1)]
        for (pid, name), group in zip(self.players, groups, strict=True):
            self.fields[f"group_{pid}"] = forms.TypedChoiceField(
                label=name, choices=choices, coerce=int, initial=str(group)
            )
        self.ladder_groups = list(groups)

    def group_fields(self) -> list[forms.BoundField]:
        return [self[f"group_{pid}"] for pid, _ in self.players]

    def override_groups(self) -> list[list[int]] | None:
        """The official's groups (players in ladder order), or None when unchanged."""
        chosen = [self.cleaned_data[f"group_{pid}"] for pid, _ in self.players]
        if chosen == self.ladder_groups:
            return None
        groups: dict[int, list[int]] = {}
        for (pid, _), group in zip(self.players, chosen, strict=True):
            groups.setdefault(group, []).append(pid)
        return [groups[n] for n in sorted(groups)]


class CloseMeetForm(forms.Form):
    override_reason = _reason("Close it anyway: why? (only when unfinished)", required=False)


def _game_field(games: PlayerChoices) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label="Game", choices=[("", "Choose…"), *[(str(i), t) for i, t in games]], coerce=int
    )


class GamePlayerForm(forms.Form):
    """A base for meet forms about one player in one game."""

    def __init__(
        self, *args: Any, games: PlayerChoices, players: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"] = _game_field(games)
        self.fields["player"] = _player_field(players, "Player")
        self.order_fields(["game", "player"])


class ForfeitForm(GamePlayerForm):
    reason = forms.ChoiceField(
        choices=[
            (m.Forfeit.Reason.ABSENT, m.Forfeit.Reason.ABSENT.label),
            (m.Forfeit.Reason.LATE, m.Forfeit.Reason.LATE.label),
            (m.Forfeit.Reason.OTHER, m.Forfeit.Reason.OTHER.label),
        ]
    )
    countable = forms.BooleanField(
        label="Countable toward the season forfeit", required=False, initial=True
    )
    note = _reason("Note (why, when it is not countable)", required=False)


class LateJoinForm(GamePlayerForm):
    machine_allows_joining = forms.BooleanField(
        label="The machine lets a player join the game in progress", required=False
    )
    last_player_not_past_ball_1 = forms.BooleanField(
        label="The last player has not finished ball 1", required=False
    )


class MalfunctionForm(GamePlayerForm):
    ball = forms.IntegerField(min_value=1, max_value=10)
    reason_code = forms.ChoiceField(label="What happened", choices=m.Malfunction.ReasonCode.choices)
    kind = forms.ChoiceField(
        label="Official's classification (reason “other” only)",
        required=False,
        choices=[("", "—"), *m.Malfunction.Kind.choices],
    )
    note = _reason("Note / ruling", required=False)
    problem = forms.CharField(label="Announced problem it matches", required=False)
    one_handed_ball = forms.BooleanField(label="On a one-handed extra ball", required=False)
    ball_in_play = forms.BooleanField(label="Ball was in play", required=False, initial=True)
    request_compensatory = forms.BooleanField(
        label="The player asks for a compensatory game now", required=False
    )

    def clean_kind(self) -> str | None:
        return self.cleaned_data.get("kind") or None


class CompensatoryRequestForm(GamePlayerForm):
    play_continued = forms.BooleanField(label="Play had already continued", required=False)


class CompensatoryGameForm(GamePlayerForm):
    new_score = ScoreField(label="Compensatory game score", required=True)
    leading_subtracted = ScoreField(label="Leading points subtracted (R7.3-n)")
    state_subtracted = ScoreField(label="Game-state points subtracted (R7.3-o)")
    reason = _reason("Why subtract? (only when subtracting)", required=False)


class ViolationForm(forms.Form):
    kind = forms.ChoiceField(choices=m.Violation.Kind.choices)
    reason = _reason("What happened?")
    games_completed = forms.IntegerField(
        label="Between games: games completed", min_value=0, max_value=4, initial=0
    )
    accidental = forms.BooleanField(label="Rule a wrong-ball play accidental (A28)", required=False)
    target_game = forms.IntegerField(
        label="Game to forfeit (when the rules leave it to you)",
        required=False,
        min_value=1,
        max_value=4,
    )
    last_allowable_ball = forms.BooleanField(label="On the last allowable ball", required=False)
    slam_tilted = forms.BooleanField(label="The machine slam tilted", required=False)

    def __init__(
        self, *args: Any, games: PlayerChoices, players: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player_field(players, "Player")
        self.fields["game"] = forms.TypedChoiceField(
            label="During game (a confirmed one)",
            required=False,
            choices=[("", "Between games"), *[(str(i), t) for i, t in games]],
            coerce=int,
            empty_value=None,
        )
        self.order_fields(["player", "kind", "game"])


class MachineDeclarationForm(forms.Form):
    kind = forms.ChoiceField(
        label="Declare", choices=[("unplayable", "Unplayable"), ("repaired", "Repaired")]
    )
    reason = _reason()

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = forms.TypedChoiceField(
            choices=[("", "Choose…"), *[(str(i), t) for i, t in machines]], coerce=int
        )
        self.order_fields(["machine"])


class MachineProblemForm(forms.Form):
    problem = forms.CharField(label="Problem announced before play", max_length=200)

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = forms.TypedChoiceField(
            choices=[("", "Choose…"), *[(str(i), t) for i, t in machines]], coerce=int
        )
        self.order_fields(["machine"])


class ConsoleCorrectionForm(forms.Form):
    """An official's correction: in a closed meet it needs his override reason (A45.2)."""

    reason = _reason("What was recorded wrongly?")
    override_reason = _reason("Override reason (closed meet only)", required=False)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.fields["requested_by"] = _player_field(players, "Requested by")
        for pid, name in self.players:
            self.fields[f"score_{pid}"] = ScoreField(
                label=f"{name}’s right score", help_text="Empty: unchanged."
            )
        self.order_fields(["requested_by"])

    def scores(self) -> dict[m.Player | int, int]:
        found = {pid: self.cleaned_data.get(f"score_{pid}") for pid, _ in self.players}
        return {pid: score for pid, score in found.items() if score is not None}


class AnswerForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    agrees = forms.TypedChoiceField(
        choices=[("yes", "Agrees"), ("no", "Disagrees")], coerce=lambda v: v == "yes"
    )


# --- playoffs --------------------------------------------------------------------------------


class QualifyForm(forms.Form):
    date = forms.DateField(label="Playoff night", widget=_date_input())
    cut = forms.IntegerField(label="Override the number of qualifiers", required=False, min_value=1)
    cut_reason = _reason("Why override the cut?", required=False)


class OrderForm(forms.Form):
    """Tied players in finishing order (winner first), as one select per place."""

    def __init__(
        self, *args: Any, players: PlayerChoices, places: int, machines: PlayerChoices,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        for place in range(1, places + 1):
            self.fields[f"place_{place}"] = _player_field(
                players, f"Place {place}", required=place <= 2
            )
        self.fields["machine"] = forms.TypedChoiceField(
            label="Machine",
            required=False,
            choices=[("", "Draw one at random"), *[(str(i), t) for i, t in machines]],
            coerce=int,
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
        self.fields["machine"] = forms.TypedChoiceField(
            label="Machine (the chooser's pick; empty for game 1: drawn)",
            required=False,
            choices=[("", "Draw at random"), *[(str(i), t) for i, t in machines]],
            coerce=int,
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
                label="Tie place", required=False, min_value=1, max_value=4
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
    note = forms.CharField(required=False)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player_field(players, "Player not present")


class WithdrawalForm(forms.Form):
    note = forms.CharField(required=False)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player_field(players, "Player withdrawing")
        self.order_fields(["player"])


# --- ledger and special rulings --------------------------------------------------------------

LEDGER_KINDS = [
    ("dues_paid", "Dues paid"),
    ("kitty_in", "Money into the kitty"),
    ("kitty_spend", "Kitty spent"),
    ("transfer_to_treasury", "Transfer to the treasury"),
    ("treasury_expense", "Treasury expense"),
    ("interference_charge", "Interference charge (§8.3)"),
    ("restart_charge", "Restart charge (§8.6)"),
]
LEDGER_REASONS = [
    ("", "— (none needed)"),
    ("coin_mech_failure", "Kitty spend: coin mech failure (R9-d)"),
    ("bonus_credits", "Kitty spend: bonus credits (R9-d)"),
    ("playoff_games", "Expense: playoff games (R9-f)"),
    ("trophies", "Expense: trophies"),
    ("parties", "Expense: parties"),
    ("prizes", "Expense: prizes"),
    ("other", "Expense: other"),
    ("replayed_game", "Interference: replayed game (R8.3-d)"),
    ("buy_in_ball", "Interference: buy-in ball (R8.3-d)"),
]


class LedgerEntryForm(forms.Form):
    kind = forms.ChoiceField(choices=LEDGER_KINDS)
    account = forms.ChoiceField(choices=m.LedgerEntry.Account.choices)
    amount_cents = MoneyField(label="Amount")
    reason = forms.ChoiceField(label="Reason", required=False, choices=LEDGER_REASONS)
    note = forms.CharField(required=False, max_length=200)

    def __init__(
        self, *args: Any, players: PlayerChoices, seasons: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player_field(players, "Player", required=False, empty_value=None)
        self.fields["season"] = forms.TypedChoiceField(
            choices=[("", "—"), *[(str(i), n) for i, n in seasons]],
            coerce=int,
            required=False,
            empty_value=None,
        )


class ReverseEntryForm(forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label="Why reverse it?", max_length=200)


class SpecialRulingForm(forms.Form):
    machine_title = forms.CharField(max_length=120)
    kind = forms.ChoiceField(
        choices=[
            ("not_a_malfunction", "Not a malfunction"),
            ("major_malfunction", "Major malfunction"),
            ("positive_malfunction", "Positive malfunction"),
            ("not_an_extra_ball", "Not an extra ball"),
        ]
    )
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    reproducible = forms.BooleanField(required=False, label="Reproducible")
    reproduction = forms.CharField(
        label="How to reproduce it", required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    cause_and_effect = forms.CharField(
        label="Cause and effect", required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class AmendSpecialRulingForm(SpecialRulingForm):
    ruling = forms.IntegerField(widget=forms.HiddenInput)
    reason = _reason("Why amend it?")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["machine_title"]
