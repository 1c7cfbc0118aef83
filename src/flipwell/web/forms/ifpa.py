"""The IFPA submission preview's choices (which results, the league's own threshold) and the
IFPA figures its compliance checks use."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.rules import IFPA_DEFAULTS, PARAMETER_BOUNDS, IfpaResults

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


FIGURE_LABELS = {
    "min_sessions": ("Meets a season must hold", ""),
    "min_counted_sessions": ("Meets that must count", ""),
    "attendance_percent": ("Attendance to be listed (%)", ""),
    "direct_play_members": ("Players from which direct play is required", ""),
    "finals_percent": ("Share of players the finals must take (%)", ""),
    "tgp_percent_per_game": ("TGP per meaningful game (%)", ""),
    "tgp_ceiling_percent": ("Highest TGP without finals (%)", ""),
    "tgp_ceiling_with_finals_percent": (
        "Highest TGP with finals (%)",
        "Announced for the IFPA's 2023 rankings; not confirmed since.",
    ),
    "fee_cents_per_player": (
        "Fee per player, in cents",
        "USD 1 in North America; elsewhere the IFPA sets it in local currency.",
    ),
}
"""Each IFPA figure's label and, where the IFPA's number is uncertain, why it is a setting."""


class IfpaFiguresForm(forms.Form):
    """The IFPA's figures the compliance checks use; each defaults to the IFPA's number and
    its help names the IFPA page it comes from (`flipwell.rules.ifpa_compliance`). Cleans into
    `ifpa_parameters` keywords."""

    fee_currency = forms.RegexField(
        label="Fee currency",
        regex=r"^[A-Z]{3}$",
        required=False,
        help_text="Three capital letters, like USD. Source: "
        + PARAMETER_BOUNDS["fee_cents_per_player"].source.url,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, bounds in PARAMETER_BOUNDS.items():
            label, note = FIGURE_LABELS[name]
            default = getattr(IFPA_DEFAULTS, name)
            field = forms.IntegerField(
                label=label,
                required=False,
                min_value=bounds.low,
                max_value=bounds.high,
                help_text=" ".join(
                    p
                    for p in (f"The IFPA's: {default}.", note, f"Source: {bounds.source.url}")
                    if p
                ),
            )
            self.fields[name] = field
        self.fields["fee_currency"] = self.fields.pop("fee_currency")
        for name, field in self.fields.items():
            field.widget.attrs["placeholder"] = str(getattr(IFPA_DEFAULTS, name))

    def parameters(self) -> dict[str, int | str]:
        """The figures given (an empty field keeps the IFPA's)."""
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}
