"""Forms of a meet's incidents: forfeits, late joins, malfunctions and compensatory games,
violations, rulings about a player's turn. Each cleans into its service's keyword arguments
(the game and players as rows of those offered), bar the meet and the actor the view adds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from flipwell.league import enums, limits
from flipwell.league import models as m
from flipwell.league.selectors import form_rows
from flipwell.league.turn_rulings import KINDS
from flipwell.web.forms.fields import (
    GroupPlayers,
    HiddenRowField,
    PlayerChoices,
    ScoreField,
    grouped_player_field,
    plain_choices,
    player_row_field,
    reason_field,
    row_field,
)


def and_list(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


class GamePlayerForm(forms.Form):
    """A base for meet forms about one player in one game (the meet's games and their
    groups' players offered, each cleaned into its row). The player must play the game
    chosen: a player of another group is refused, the game's players named."""

    GAME_PLAYER_FIELDS: tuple[str, ...] = ("player",)
    """The fields that name a player of the game chosen."""

    def __init__(
        self, *args: Any, games: PlayerChoices, players: GroupPlayers, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.group_players = players
        self.fields["game"] = row_field("game", games, form_rows.games(), label="Game")
        self.fields["player"] = grouped_player_field(players, "Player")
        self.order_fields(["game", "player"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game = data.get("game")
        if game is None:
            return data
        members = self.group_players.get(game.group.number, ())
        for name in self.GAME_PLAYER_FIELDS:
            player = data.get(name)
            if player is not None and player.pk not in {pk for pk, _ in members}:
                names = and_list([who for _, who in members])
                self.add_error(
                    name,
                    f"{player} does not play game {game.number} of group "
                    f"{game.group.number}: its players are {names}.",
                )
        return data


class ForfeitForm(GamePlayerForm):
    reason = forms.ChoiceField(
        choices=enums.choices_of(enums.ForfeitReason, within=enums.RecordedForfeitReason)
    )
    countable = forms.BooleanField(
        label="Countable toward the season forfeit", required=False, initial=True
    )
    note = reason_field("Note (why, when it is not countable)", required=False)


class NonCountableForm(forms.Form):
    """Designate one forfeit of the list non-countable (R2.4-g): which game of the meet and
    which player are hidden, the official says why."""

    reason = reason_field("Why it does not count")

    def __init__(self, *args: Any, meet: m.Meet, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"] = HiddenRowField("game", form_rows.meet_games(meet))
        self.fields["player"] = HiddenRowField("player", form_rows.players())
        self.order_fields(["game", "player"])


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

    GAME_PLAYER_FIELDS = ("player", "slammer")

    def __init__(
        self, *args: Any, games: PlayerChoices, players: GroupPlayers, **kwargs: Any
    ) -> None:
        super().__init__(*args, games=games, players=players, **kwargs)
        self.fields["slammer"] = grouped_player_field(
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

    def clean_extra_balls(self) -> dict[int, int]:
        """The reporting player's extra balls, by player id (the service's mapping; empty
        for none)."""
        extra, player = self.cleaned_data.get("extra_balls"), self.cleaned_data.get("player")
        return {player.pk: extra} if extra and player is not None else {}

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

    def clean_leading_subtracted(self) -> int:
        return self.cleaned_data.get("leading_subtracted") or 0

    def clean_state_subtracted(self) -> int:
        return self.cleaned_data.get("state_subtracted") or 0


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
        self.fields["player"] = player_row_field(players, "Player")
        self.fields["game"] = row_field(
            "game",
            games,
            form_rows.games(),
            label="During game (a confirmed one)",
            blank="Between games",
            required=False,
            empty_value=None,
        )
        self.order_fields(["player", "kind", "game"])

    def clean(self) -> dict[str, Any]:
        """A wrong-ball play ruled accidental is the service's ``serious=False`` (A28);
        otherwise the rules say whether it is serious (None)."""
        data = super().clean() or {}
        data["serious"] = False if data.pop("accidental", False) else None
        return data


class TurnRulingForm(GamePlayerForm):
    """An official's ruling about a player's turn in a game (a slow-play warning, ...). Its
    cleaned data are `record_turn_ruling`'s arguments: the kind, the game and the player as
    their rows, the reason."""

    kind = forms.ChoiceField(
        label="Ruling", choices=[(entry.kind, entry.name) for entry in KINDS.values()]
    )
    reason = reason_field("What happened?")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order_fields(["kind", "game", "player", "reason"])


class OfficialMachineForm(forms.Form):
    """The official's choice of a group's next machine when nobody may pick (A66), one of
    the league's; empty with the draw button."""

    def __init__(self, *args: Any, league: m.League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = HiddenRowField(
            "machine", form_rows.league_machines(league), required=False
        )


class WithdrawMatchAbsenceForm(forms.Form):
    """Withdraw one player's absence for the rest of the match, recorded by mistake: which
    player (of the group) is hidden, the official says why."""

    reason = reason_field("Why the absence is withdrawn")

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_row_field(players, "Player")


class MatchAbsenceForm(forms.Form):
    """Players absent for the rest of their match (R2.4-a): every remaining game forfeited.
    The players clean into their rows, in id order."""

    players = forms.TypedMultipleChoiceField(
        label="Absent players", coerce=int, widget=forms.CheckboxSelectMultiple
    )
    note = forms.CharField(label="Note", required=False, max_length=500)
    from_game = forms.IntegerField(label="Absent from", required=False, min_value=1, max_value=4)

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = list(players)

    def clean_players(self) -> list[m.Player]:
        return form_rows.players_in_order(self.cleaned_data["players"])
