"""The IFPA submission preview's choices: which results, and the league's own threshold."""

from __future__ import annotations

from django import forms

from flipwell.rules import IfpaResults

RESULTS_CHOICES = [
    ("", "Post-finals once the playoffs are complete, else regular season"),
    (IfpaResults.REGULAR_SEASON.value, "Regular season (the standings)"),
    (IfpaResults.POST_FINALS.value, "Post-finals (the playoff places first)"),
]


class IfpaPreviewForm(forms.Form):
    results = forms.ChoiceField(label="Results", choices=RESULTS_CHOICES, required=False)
    threshold = forms.IntegerField(
        label="Meets needed",
        required=False,
        min_value=0,
        max_value=1000,
        help_text="Leave empty for half the meets played, rounded up.",
    )
