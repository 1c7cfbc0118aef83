"""Forms of the console's setup pages: a new league, officials, API tokens."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings

from flipwell.league import models as m
from flipwell.web.forms.fields import PlayerChoices, id_field, reason_field, row_choice_field


def _time_zones() -> list[tuple[str, str]]:
    return [(z, z.replace("_", " ")) for z in sorted(zoneinfo.available_timezones())]


SCOPE_CHOICES = [
    ("read_private", "Read private data (ledger, rulings)"),
    ("scores", "Enter and confirm scores"),
    ("manage", "Manage the league"),
]


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


class AddOfficialForm(forms.Form):
    username = forms.CharField(
        label="User name",
        max_length=150,
        help_text="An existing account gets the role; a new name makes a new account, with a "
        "link to set its password.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    role = forms.ChoiceField(label="Role", choices=m.LeagueOfficial.Role.choices)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player(players)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=m.LeagueOfficial.Role.choices)


class LinkPlayerForm(forms.Form):
    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player(players)


def _player(players: PlayerChoices) -> forms.TypedChoiceField:
    return row_choice_field(
        "player",
        players,
        label="Their own player record (when they also play)",
        blank="— none: they do not play",
        required=False,
        empty_value=None,
        help_text="Their rulings on a group they play in are then flagged (A55).",
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
    token = id_field("token")


class ReadingForm(forms.Form):
    """A new value for one of the league's readings (a `Ruleset` setting), and why."""

    setting = forms.CharField(widget=forms.HiddenInput)
    value = forms.CharField(label="New value", max_length=400)
    reason = reason_field("Why change it?")

    def __init__(
        self, *args: Any, choices: tuple[str, ...] = (), help_text: str = "", **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if choices:
            self.fields["value"] = forms.ChoiceField(
                label="New value", choices=[(c, c.replace("_", " ")) for c in choices]
            )
        self.fields["value"].help_text = help_text
