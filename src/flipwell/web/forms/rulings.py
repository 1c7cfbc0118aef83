"""Forms of special rulings (Appendix A): a new ruling, and an amendment."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import enums
from flipwell.web.forms.fields import reason_field


class SpecialRulingForm(forms.Form):
    machine_title = forms.CharField(max_length=120)
    kind = forms.ChoiceField(choices=enums.SpecialRulingKind.choices)
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
    reason = reason_field("Why amend it?")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["machine_title"]
