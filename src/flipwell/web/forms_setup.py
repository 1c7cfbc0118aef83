"""Forms of the console's setup pages: a new league, the machine pool, officials, API tokens.

Like `flipwell.web.forms`, they check the shape of input only; the services decide (and their
messages land next to the field they name, `flipwell.web.forms.show_service_errors`).
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings

from flipwell.league import models as m
from flipwell.league.models.machines import MAX_BALLS_PER_GAME

Choices = list[tuple[int, str]]
SCOPE_CHOICES = [
    ("read_private", "Read private data (ledger, rulings)"),
    ("scores", "Enter and confirm scores"),
    ("manage", "Manage the league"),
]


def _time_zones() -> list[tuple[str, str]]:
    return [(z, z.replace("_", " ")) for z in sorted(zoneinfo.available_timezones())]


def _number(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", **attrs})


def _reason(label: str) -> forms.CharField:
    return forms.CharField(label=label, max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


class NewLeagueForm(forms.Form):
    name = forms.CharField(label="League name", max_length=120)
    slug = forms.SlugField(
        label="Web address",
        max_length=60,
        help_text="Letters, digits and dashes: the league's pages live at /leagues/<address>/.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    venue = forms.CharField(label="Venue", max_length=200, required=False)
    time_zone = forms.ChoiceField(label="Time zone", choices=_time_zones)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].initial = settings.TIME_ZONE


class MachineForm(forms.Form):
    title = forms.CharField(label="Title", max_length=120)
    balls_per_game = forms.IntegerField(
        label="Balls per game",
        min_value=1,
        max_value=MAX_BALLS_PER_GAME,
        initial=3,
        widget=_number(),
    )
    location = forms.CharField(
        label="Location",
        max_length=120,
        required=False,
        help_text="Where it stands (“back room, left”): tells two of the same title apart.",
    )


class EditMachineForm(MachineForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["title"]


class MachineStatusForm(forms.Form):
    """In or out of the pool; the status is the one the machine does not have (hidden)."""

    status = forms.ChoiceField(choices=m.Machine.Status.choices, widget=forms.HiddenInput)
    reason = _reason("Why?")


class AddOfficialForm(forms.Form):
    username = forms.CharField(
        label="User name",
        max_length=150,
        help_text="An existing account gets the role; a new name makes a new account, with a "
        "link to set its password.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    role = forms.ChoiceField(label="Role", choices=m.LeagueOfficial.Role.choices)

    def __init__(self, *args: Any, players: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player(players)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=m.LeagueOfficial.Role.choices)


class LinkPlayerForm(forms.Form):
    def __init__(self, *args: Any, players: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player(players)


def _player(players: Choices) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label="His own player record (when he also plays)",
        choices=[("", "— none: he does not play"), *[(str(p), n) for p, n in players]],
        coerce=int,
        required=False,
        empty_value=None,
        help_text="His rulings on a group he plays in are then flagged (A55).",
    )


class IssueTokenForm(forms.Form):
    name = forms.CharField(
        label="Who or what will use it", max_length=100, help_text="For example “bar TV kiosk”."
    )
    scopes = forms.MultipleChoiceField(
        label="It may",
        choices=SCOPE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        initial=["read_private"],
    )


class RevokeTokenForm(forms.Form):
    token = forms.IntegerField(widget=forms.HiddenInput)
