"""Forms of the console's setup pages: a new league, officials, API tokens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import slugify

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.league.validators import clean_slug as stored_slug
from flipwell.league.validators import validate_league_slug
from flipwell.web.forms.fields import (
    LineField,
    PlayerChoices,
    id_field,
    player_row_field,
    reason_field,
)
from flipwell.web.time_zones import server_zone, zone_choices

SLUG_LENGTH = 60


SCOPE_CHOICES = [
    ("read_private", "Read private data (ledger, rulings)"),
    ("scores", "Enter and confirm scores"),
    ("manage", "Manage the league"),
]


class NewLeagueForm(forms.Form):
    """A new league. The web address is filled in from the name as the official types
    (static/flipwell/league-slug.js); left empty, it is made from the name here."""

    name = LineField(
        label="League name",
        max_length=120,
        widget=forms.TextInput(attrs={"data-slug-source": "id_slug"}),
    )
    slug = forms.SlugField(
        label="Web address",
        max_length=SLUG_LENGTH,
        required=False,
        help_text="Letters, digits and dashes: the league's pages live at /leagues/<address>/. "
        "Made from the name unless you change it.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    venue = LineField(label="Venue", max_length=200, required=False)
    time_zone = forms.ChoiceField(label="Time zone", choices=zone_choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].initial = server_zone()

    def clean_slug(self) -> str:
        """The slug as stored (lower case), not a route's name."""
        slug = stored_slug(self.cleaned_data.get("slug") or "")
        if slug:
            validate_league_slug(slug)
        return slug

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            made = slugify(data["name"])[:SLUG_LENGTH].strip("-_")
            if not made:
                self.add_error("slug", "Give the web address: letters, digits and dashes.")
            data["slug"] = made
        return data


class InviteOfficialForm(forms.Form):
    who = forms.CharField(
        label="User name or e-mail address",
        max_length=limits.INVITEE_LENGTH,
        help_text="The account they sign in with. It gets an invitation to accept or decline "
        "when it signs in; nobody holds a role they did not accept.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    role = forms.ChoiceField(label="Role", choices=m.LeagueOfficial.Role.choices)


class WithdrawInvitationForm(forms.Form):
    invitation = id_field("invitation")


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=m.LeagueOfficial.Role.choices)


class LinkPlayerForm(forms.Form):
    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = _player(players)


def _player(players: PlayerChoices) -> forms.TypedChoiceField:
    """The official's own player record, one of the league's, or None."""
    return player_row_field(
        players,
        "Their own player record (when they also play)",
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
