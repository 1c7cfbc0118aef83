"""Forms of a player's notices: the official's (address and kinds) and the player's own (kinds)."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league.models import NoticeKind


class NoticeKindsForm(forms.Form):
    """The kinds of notice a player chose, one box each (`kinds` lists the ticked ones)."""

    groups = forms.BooleanField(label="My group when a meet starts", required=False)
    results = forms.BooleanField(label="My night's results when a meet closes", required=False)
    reminder = forms.BooleanField(label="A reminder before each meet", required=False)
    ruling = forms.BooleanField(label="An official's ruling that affects me", required=False)

    def kinds(self) -> list[str]:
        return [kind for kind in NoticeKind.values if self.cleaned_data.get(kind)]


class NoticePreferencesForm(NoticeKindsForm):
    """A player's address and notices, as a league official sets them."""

    email = forms.EmailField(
        label="E-mail address",
        required=False,
        max_length=254,
        help_text="Empty, with no box ticked: no notices.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order_fields(["email", *NoticeKind.values])
        labels = {
            "groups": "Their group when a meet starts",
            "results": "Their night's results when a meet closes",
            "reminder": "A reminder before each meet",
            "ruling": "An official's ruling that affects them",
        }
        for name, label in labels.items():
            self.fields[name].label = label
