"""Forms of special rulings (Appendix A): a new ruling, an amendment, and a copy of another
league's."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import enums, limits
from flipwell.league import models as m
from flipwell.league.selectors import form_rows
from flipwell.web.forms.fields import HiddenRowField, reason_field


class SpecialRulingForm(forms.Form):
    machine_title = forms.CharField(max_length=limits.TITLE_LENGTH)
    kind = forms.ChoiceField(choices=enums.SpecialRulingKind.choices)
    text = forms.CharField(
        max_length=limits.RULING_TEXT_LENGTH, widget=forms.Textarea(attrs={"rows": 3})
    )
    reproducible = forms.BooleanField(required=False, label="Reproducible")
    reproduction = forms.CharField(
        label="How to reproduce it",
        required=False,
        max_length=limits.RULING_TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    cause_and_effect = forms.CharField(
        label="Cause and effect",
        required=False,
        max_length=limits.RULING_TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class AmendSpecialRulingForm(SpecialRulingForm):
    """An amendment of a ruling of the league's list (hidden, cleaned into its row; another
    league's ruling is stale), and why."""

    ruling = HiddenRowField(
        "ruling",
        form_rows.special_rulings(),
        stale="That ruling no longer exists: reload the page.",
    )
    reason = reason_field("Why amend it?")

    def __init__(self, *args: Any, league: m.League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["machine_title"]
        ruling = self.fields["ruling"]
        assert isinstance(ruling, HiddenRowField)
        ruling.queryset = form_rows.league_special_rulings(league)


class CopySpecialRulingForm(forms.Form):
    """Another league's ruling (hidden, cleaned into its row; one of the league's own is
    stale) copied into the league's list as its own."""

    ruling = HiddenRowField(
        "ruling",
        form_rows.no_special_rulings(),
        stale="That ruling no longer exists: reload the page.",
    )

    def __init__(self, *args: Any, league: m.League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruling = self.fields["ruling"]
        assert isinstance(ruling, HiddenRowField)
        ruling.queryset = form_rows.other_leagues_special_rulings(league)
