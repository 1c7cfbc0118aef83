"""The fields and helpers every form of the web uses: machine scores, money, player
selects, and putting a service's errors on a form.

Words: a *machine score* is typed as the digits 0-9, with or without one kind of thousands
separator between groups of three digits (``1,234,560``, ``1.234.560``, ``1 234 560``,
``1'234'560`` all read 1234560). Anything else is refused, not guessed: ``1.5`` may be a
decimal, ``١٢٣`` uses other digits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from flipwell.league import limits
from flipwell.league.selectors import form_rows
from flipwell.league.validators import clean_line
from flipwell.web.words import split_rules

# One separator, the same between every group of three digits: comma, full stop, apostrophe
# (straight or curly, as phones type it), space, no-break space, thin and narrow no-break space.
GROUPED_DIGITS = re.compile(
    r"[0-9]{1,3}(?:([,.'\u2019 \u00a0\u2009\u202f])[0-9]{3})(?:\1[0-9]{3})*", re.ASCII
)

DIGITS_AND_SEPARATORS = re.compile(r"[0-9,.'\u2019 \u00a0\u2009\u202f]+")


ASCII_DIGITS = re.compile(r"[0-9]+", re.ASCII)

MAX_SCORE = limits.MACHINE_SCORE.maximum


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
    if value > MAX_SCORE:
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


def plain_choices(choices: Sequence[tuple[Any, str]]) -> list[tuple[Any, str]]:
    """A choice list as an official reads it: each label without its bracketed rule id
    ("Interference (§8.3)" -> "Interference")."""
    return [(value, split_rules(str(label))[0]) for value, label in choices]


def row_choice_field(
    what: str,
    rows: PlayerChoices,
    *,
    label: str,
    blank: str | None = "Choose…",
    coerce: Callable[[Any], Any] = int,
    **kwargs: Any,
) -> forms.TypedChoiceField:
    """A select of rows (players, games, machines, seasons) by name, cleaned to the row's id
    (or by `coerce`, which sees only a value offered).

    A value not offered (a player not in the group, a machine since taken out) is refused
    with a message naming the field and `what` it lists, never the id that was sent: Django's
    own message ("13 is not one of the available choices") means nothing to a player.
    """
    offered = [(str(pk), name) for pk, name in rows]
    return forms.TypedChoiceField(
        label=label,
        choices=offered if blank is None else [("", blank), *offered],
        coerce=coerce,
        error_messages={"invalid_choice": not_offered(what, label)},
        **kwargs,
    )


def row_field(
    what: str,
    rows: PlayerChoices,
    queryset: QuerySet[Any],
    *,
    label: str,
    blank: str | None = "Choose…",
    **kwargs: Any,
) -> forms.TypedChoiceField:
    """A select of rows by name (`row_choice_field`) that cleans into the row itself, found in
    `queryset`. Only an id offered is looked up, and the rows offered are the league's own (a
    selector of the league lists them), so another league's id is refused as not offered; a
    row gone since the page was shown is refused with the same words."""
    return row_choice_field(
        what, rows, label=label, blank=blank, coerce=_row_of(queryset), **kwargs
    )


def _row_of(queryset: QuerySet[Any]) -> Callable[[Any], Any]:
    def row(pk: Any) -> Any:
        found = queryset.filter(pk=int(pk)).first()
        if found is None:
            raise ValueError(pk)  # TypedChoiceField says: not one of those offered
        return found

    return row


class LineField(forms.CharField):
    """A name or title, cleaned as it is stored (`flipwell.league.validators.clean_line`: NFKC,
    no invisible or control characters, single spaces), as the API and the services do."""

    def to_python(self, value: Any) -> str:
        return clean_line(str(super().to_python(value)))


class HiddenRowField(forms.IntegerField):
    """A hidden row id (as `id_field`) that cleans into the row of `queryset`, the rows the
    page may act on (a meet's games, the league's ledger entries): an id of any other row,
    another league's too, is refused in words, the page may be out of date."""

    def __init__(self, what: str, queryset: QuerySet[Any], **kwargs: Any) -> None:
        self.queryset = queryset
        self.stale = kwargs.pop("stale", None) or _stale(what)
        kwargs.setdefault("widget", forms.HiddenInput)
        super().__init__(
            min_value=limits.ID.minimum,
            max_value=limits.ID.maximum,
            error_messages={
                "invalid": self.stale,
                "min_value": self.stale,
                "max_value": self.stale,
            },
            **kwargs,
        )

    def clean(self, value: Any) -> Any:
        pk = super().clean(value)
        if pk is None:
            return None
        found = self.queryset.filter(pk=pk).first()
        if found is None:
            raise ValidationError(self.stale, code="invalid_choice")
        return found


def _stale(what: str) -> str:
    return f"That {what} is not one this page offered (the page may be out of date): reload it."


def not_offered(what: str, label: str) -> str:
    """The message of a choice that is not among those offered (see `row_choice_field`)."""
    return (
        f"{label}: that {what} is not one of the {what}s offered here "
        f"(the page may be out of date). Choose a {what} from the list."
    )


def id_field(what: str, **kwargs: Any) -> forms.IntegerField:
    """A hidden field that carries a row's id (`limits.ID`); a value that is no id is refused
    on the form, in words: the page may be out of date (a hidden field's raw bounds would mean
    nothing to the person, and an id past the bigint range would fail the database)."""
    stale = _stale(what)
    kwargs.setdefault("widget", forms.HiddenInput)
    return forms.IntegerField(
        min_value=limits.ID.minimum,
        max_value=limits.ID.maximum,
        error_messages={"invalid": stale, "min_value": stale, "max_value": stale},
        **kwargs,
    )


def player_field(players: PlayerChoices, label: str, **kwargs: Any) -> forms.TypedChoiceField:
    return row_choice_field("player", players, label=label, **kwargs)


def player_row_field(players: PlayerChoices, label: str, **kwargs: Any) -> forms.TypedChoiceField:
    """A select of players (`player_field`) that cleans into the Player: the players offered
    are those the page may act on (a group's, a season's, the league's)."""
    return row_field("player", players, form_rows.players(), label=label, **kwargs)


GroupPlayers = Mapping[int, PlayerChoices]
"""Group number -> its players (id, name): the players of each group's games."""


def grouped_player_field(
    groups: GroupPlayers, label: str, *, blank: str | None = "Choose…", **kwargs: Any
) -> forms.TypedChoiceField:
    """A select of players (`player_row_field`) in one option group per group ("Group 2"),
    so each game's players read together; one group's players need none."""
    everyone = [p for players in groups.values() for p in players]
    field = player_row_field(everyone, label, blank=blank, **kwargs)
    if len(groups) > 1:
        grouped: list[Any] = [
            (f"Group {number}", [(str(pk), name) for pk, name in players])
            for number, players in groups.items()
        ]
        field.choices = grouped if blank is None else [("", blank), *grouped]
    return field


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


def date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"})


def reason_field(
    label: str = "Why?",
    *,
    required: bool = True,
    max_length: int = limits.TEXT_LENGTH,
    empty_value: str | None = "",
) -> forms.CharField:
    """A short text box for an official's reason; left empty, `empty_value` (None for a
    service whose reason is None when none is given)."""
    return forms.CharField(
        label=label,
        required=required,
        max_length=max_length,
        empty_value=empty_value,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def cents_as_money(cents: int) -> Decimal:
    """An amount in cents as the money a form shows (1250 -> 12.50)."""
    return Decimal(cents) / 100


class MoneyField(forms.DecimalField):
    """An amount in the league's currency typed with cents (12.50); cleans to integer cents."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 10)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal(0))
        kwargs.setdefault("max_value", cents_as_money(limits.AMOUNT_CENTS.maximum))
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
        )
        super().__init__(**kwargs)

    def clean(self, value: Any) -> Any:
        amount = super().clean(value)
        return None if amount is None else int(amount * 100)


def number_input(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", **attrs})
