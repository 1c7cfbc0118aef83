"""The IFPA submission preview's choices (which results, the league's own threshold) and the
form that sets one of the IFPA figures the league's IFPA checks use."""

from __future__ import annotations

from django import forms

from flipwell.league.selectors.ifpa import FIGURE_WORDS
from flipwell.rules import IfpaResults
from flipwell.web.forms.fields import reason_field

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


class IfpaFigureForm(forms.Form):
    """One IFPA figure as the league uses it (`change_ifpa_figure`), and why; an empty value
    returns to the IFPA's."""

    figure = forms.ChoiceField(label="Figure", choices=list(FIGURE_WORDS.items()))
    value = forms.CharField(
        label="New value",
        max_length=12,
        required=False,
        help_text="A whole number, or three letters for the currency. Leave empty for the "
        "IFPA's own.",
    )
    reason = reason_field("Why change it?")
