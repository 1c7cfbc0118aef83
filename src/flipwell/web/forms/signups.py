"""Forms of signing up for the next season: the official's question to the players (its
name, league night, first date and dues), a refusal's reason, and the public sign-up form
(name, e-mail address, IFPA number). Each cleans into its service's keyword arguments; the
roster's rules are the service's (`flipwell.league.services.signups`)."""

from __future__ import annotations

from django import forms

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.web.forms.fields import MoneyField, date_input, number_input, reason_field


class AskNextSeasonForm(forms.Form):
    """The question to the players of the season (ask_next_season)."""

    name = forms.CharField(label="The season you ask about", max_length=120)
    weekday = forms.TypedChoiceField(
        label="Its league night", choices=m.Weekday.choices, coerce=int
    )
    starts_on = forms.DateField(
        label="First meet", widget=date_input(), help_text="A date on the league night."
    )
    dues_cents = MoneyField(label="Dues", initial="0.00")


class RefuseSignUpForm(forms.Form):
    """The official's reason to refuse a sign-up (refuse_signup)."""

    reason = reason_field("Why refuse? (the newcomer is not told by flipwell: write to them)")


class SignUpForm(forms.Form):
    """A newcomer signs up from the league's public form (sign_up)."""

    first_name = forms.CharField(
        label="First name",
        max_length=limits.NAME_LENGTH,
        error_messages={"required": "Give your first name."},
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )
    last_name = forms.CharField(
        label="Last name",
        max_length=limits.NAME_LENGTH,
        error_messages={"required": "Give your last name."},
        widget=forms.TextInput(attrs={"autocomplete": "family-name"}),
    )
    email = forms.EmailField(
        label="E-mail address",
        max_length=254,
        error_messages={
            "required": "Give your e-mail address: the league official answers there.",
            "invalid": "This is not an e-mail address (like name@example.org).",
        },
        help_text="Only the league officials see it.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    ifpa_number = forms.IntegerField(
        label="IFPA number (optional)",
        required=False,
        min_value=limits.IFPA.minimum,
        max_value=limits.IFPA.maximum,
        error_messages={
            "invalid": "An IFPA number is a whole number (as on your IFPA page).",
            "min_value": "An IFPA number is a whole number from 1 (as on your IFPA page).",
            "max_value": "No IFPA number is that long: check it on your IFPA page.",
        },
        help_text="Leave it empty if you have none: you are entered unranked.",
        widget=number_input(),
    )
