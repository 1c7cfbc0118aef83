"""Forms of a meet's incidents: forfeits, late joins, malfunctions and compensatory games,
violations, slow-play warnings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from flipwell.league import enums, limits
from flipwell.league import models as m
from flipwell.web.forms.fields import (
    PlayerChoices,
    ScoreField,
    plain_choices,
    player_field,
    reason_field,
    row_choice_field,
)


def _game_field(games: PlayerChoices) -> forms.TypedChoiceField:
    return row_choice_field("game", games, label="Game")


class GamePlayerForm(forms.Form):
    """A base for meet forms about one player in one game."""

    def __init__(
        self, *args: Any, games: PlayerChoices, players: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"] = _game_field(games)
        self.fields["player"] = player_field(players, "Player")
        self.order_fields(["game", "player"])


class ForfeitForm(GamePlayerForm):
    reason = forms.ChoiceField(
        choices=enums.choices_of(enums.ForfeitReason, within=enums.RecordedForfeitReason)
    )
    countable = forms.BooleanField(
        label="Countable toward the season forfeit", required=False, initial=True
    )
    note = reason_field("Note (why, when it is not countable)", required=False)


class NonCountableForm(forms.Form):
    """Designate one forfeit of the list non-countable (R2.4-g): which game and player are
    hidden, the official says why."""

    game = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    player = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    reason = reason_field("Why it does not count")


class LateJoinForm(GamePlayerForm):
    machine_allows_joining = forms.BooleanField(
        label="The machine lets a player join the game in progress", required=False
    )
    last_player_not_past_ball_1 = forms.BooleanField(
        label="The last player has not finished ball 1", required=False
    )


class MalfunctionForm(GamePlayerForm):
    ball = forms.IntegerField(min_value=limits.BALL.minimum, max_value=limits.BALL.maximum)
    reason_code = forms.ChoiceField(label="What happened", choices=enums.MalfunctionReason.choices)
    kind = forms.ChoiceField(
        label="Official's classification (reason “other” only)",
        required=False,
        choices=enums.choices_of(enums.MalfunctionKind, blank="—"),
    )
    note = reason_field("Note / ruling", required=False)
    problem = forms.CharField(
        label="Announced problem it matches", required=False, max_length=limits.PROBLEM_LENGTH
    )
    one_handed_ball = forms.BooleanField(label="On a one-handed extra ball", required=False)
    ball_in_play = forms.BooleanField(label="Ball was in play", required=False, initial=True)
    request_compensatory = forms.BooleanField(
        label="The player asks for a compensatory game now", required=False
    )
    extra_balls = forms.IntegerField(
        label="Extra balls the player had collected in this game",
        help_text="For an event that ends the game: an allowable extra ball they collected is "
        "a ball they are owed.",
        min_value=0,
        max_value=limits.BALL.maximum,
        initial=0,
        required=False,
    )

    def __init__(
        self, *args: Any, games: PlayerChoices, players: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, games=games, players=players, **kwargs)
        self.fields["slammer"] = player_field(
            players,
            "Slam tilted on purpose by",
            blank="Nobody: it was an accident",
            required=False,
            empty_value=None,
            help_text="For a slam tilt a player caused on purpose (an aggressive shove, an "
            "attempted bangback or deathsave): they are owed nothing, and take a serious "
            "violation's penalty.",
        )

    def clean_kind(self) -> str | None:
        return self.cleaned_data.get("kind") or None

    def clean_extra_balls(self) -> int:
        return self.cleaned_data.get("extra_balls") or 0

    def clean(self) -> dict[str, Any]:
        """A slammer for a slam tilt only (R8.4-a), as the service says; said here too so the
        review of a game-ending event is never shown for it."""
        data = super().clean() or {}
        if data.get("slammer") and data.get("reason_code") != enums.MalfunctionReason.SLAM_TILT:
            self.add_error(
                "slammer", "Only a slam tilt is slam tilted on purpose: leave the slammer empty."
            )
        return data


class NextBallsForm(forms.Form):
    """After a game-ending malfunction: each other player's next ball, offered from the play
    order, and the extra balls they had collected (R7.3-l); the official adjusts them. A ball
    past the last is a player who had played all their balls."""

    PREFIX = "next_ball_"
    EXTRA = "extra_balls_"

    def __init__(self, *args: Any, owed: Sequence[tuple[int, str, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for player_id, name, ball in owed:
            self.fields[f"{self.PREFIX}{player_id}"] = forms.IntegerField(
                label=f"{name}: next ball",
                min_value=limits.BALL.minimum,
                max_value=limits.BALL.maximum + 1,
                initial=ball,
                required=False,  # blank: the play order's
            )
            self.fields[f"{self.EXTRA}{player_id}"] = forms.IntegerField(
                label=f"{name}: extra balls collected in this game",
                min_value=0,
                max_value=limits.BALL.maximum,
                initial=0,
                required=False,  # blank: none
            )

    def next_balls(self) -> dict[int, int]:
        """Player id -> next ball the official gave (the others' come from the play order)."""
        return self._by_player(self.PREFIX)

    def extra_balls(self) -> dict[int, int]:
        """Player id -> extra balls collected, for the players who collected any."""
        return {p: n for p, n in self._by_player(self.EXTRA).items() if n}

    def _by_player(self, prefix: str) -> dict[int, int]:
        return {
            int(k.removeprefix(prefix)): v
            for k, v in self.cleaned_data.items()
            if k.startswith(prefix) and v is not None
        }


class CompensatoryRequestForm(GamePlayerForm):
    play_continued = forms.BooleanField(label="Play had already continued", required=False)


class CompensatoryGameForm(GamePlayerForm):
    new_score = ScoreField(label="Compensatory game score", required=True)
    leading_subtracted = ScoreField(
        label="Leading points subtracted", help_text="Only when the rules call for it (R7.3-n)."
    )
    state_subtracted = ScoreField(
        label="Game-state points subtracted",
        help_text="Only when the rules call for it (R7.3-o).",
    )
    reason = reason_field("Why subtract? (only when subtracting)", required=False)


class ViolationForm(forms.Form):
    kind = forms.ChoiceField(choices=plain_choices(enums.ViolationKind.choices))
    reason = reason_field("What happened?")
    games_completed = forms.IntegerField(
        label="Between games: games completed",
        min_value=limits.GAMES_COMPLETED.minimum,
        max_value=limits.GAMES_COMPLETED.maximum,
        initial=0,
    )
    accidental = forms.BooleanField(
        label="Rule a wrong-ball play accidental",
        help_text="When a wrong-ball play was an honest mistake (A28).",
        required=False,
    )
    target_game = forms.IntegerField(
        label="Game to forfeit (when the rules leave it to you)",
        required=False,
        min_value=limits.TARGET_GAME.minimum,
        max_value=limits.TARGET_GAME.maximum,
    )
    last_allowable_ball = forms.BooleanField(label="On the last allowable ball", required=False)
    slam_tilted = forms.BooleanField(label="The machine slam tilted", required=False)

    def __init__(
        self, *args: Any, games: PlayerChoices, players: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_field(players, "Player")
        self.fields["game"] = row_choice_field(
            "game",
            games,
            label="During game (a confirmed one)",
            blank="Between games",
            required=False,
            empty_value=None,
        )
        self.order_fields(["player", "kind", "game"])


class SlowPlayWarningForm(GamePlayerForm):
    """A slow-play warning (R7.5-a). Its cleaned data are `record_slow_play_warning`'s
    arguments: the game as its row, the player as an id, the reason."""

    reason = reason_field("What happened?")

    def clean_game(self) -> m.Game:
        """The game chosen (one the page offered), as its row."""
        return m.Game.objects.select_related("group__meet__season__league", "machine").get(
            pk=self.cleaned_data["game"]
        )


class OfficialMachineForm(forms.Form):
    """The official's choice of a group's next machine when nobody may pick (A66); empty
    with the draw button."""

    machine = forms.IntegerField(min_value=1, required=False)


class MatchAbsenceForm(forms.Form):
    """Players absent for the rest of their match (R2.4-a): every remaining game forfeited."""

    players = forms.TypedMultipleChoiceField(
        label="Absent players", coerce=int, widget=forms.CheckboxSelectMultiple
    )
    note = forms.CharField(label="Note", required=False, max_length=500)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = list(players)
