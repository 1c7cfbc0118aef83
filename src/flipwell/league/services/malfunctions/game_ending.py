"""What an event that ends the game (total failure or reset, power loss, fire, slam tilt)
gives every player of the game (R7.3-h, R7.3-i, R7.3-l, R8.4-a, A32), before or as it is
recorded.

Words:
- *next ball*: the ball a player was on (the current player) or would have played next.
- *owed*: the balls recorded as each kind of malfunction for a player, and the compensatory
  game's balls he is owed (R7.3-l; none, R7.3-k).
- the *slammer*: a player who slam tilted the machine on purpose, owed nothing (R8.4-a).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import forfeited_in
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import Refusal
from flipwell.league.selectors.meet_board.board import game_play_order
from flipwell.league.services._edge import group_player_ids, ref_id, require_member, rules_edge
from flipwell.rules.compensatory_games import compensatory_balls, compensatory_entitled
from flipwell.rules.game_ending_malfunctions import catastrophic_event, last_ball, next_turns
from flipwell.rules.malfunctions import Malfunction


@dataclass(frozen=True)
class Owed:
    """What a game-ending event gives one player of the game (R7.3-h, R7.3-i, A32).

    next_ball: the ball he was on (the current player) or would have played next. majors,
    catastrophic: the balls recorded as each kind. balls: the balls of the compensatory game
    he is owed (R7.3-l); 0 when he is owed none (R7.3-k). In words:
    `flipwell.web.words.incidents.what_owed`.
    """

    player_id: int
    name: str
    next_ball: int
    majors: tuple[int, ...]
    catastrophic: tuple[int, ...]
    balls: int
    extra_balls: int = 0
    """Extra balls they had collected in the game (the allowable ones are owed, R7.3-l)."""
    slammer: bool = False
    """They slam tilted the machine on purpose: owed nothing (R8.4-a, A32)."""


def malfunction_balls(owed: Owed) -> list[tuple[int, str]]:
    """His malfunctions as (ball, kind), ball order."""
    return sorted(
        [(b, "major") for b in owed.majors] + [(b, "catastrophic") for b in owed.catastrophic]
    )


@dataclass(frozen=True)
class GameEnding:
    """The malfunctions a game-ending event gives every player of the game, before or after
    they are recorded (`preview_game_ending`, `report_malfunction`)."""

    game_id: int
    balls_per_game: int
    owed: tuple[Owed, ...]
    """Every player who plays the game, in its play order."""


@dataclass(frozen=True)
class EndingReport:
    """What the official says of a game-ending event beyond its ball (R7.3-l, R8.4-a):
    each other player's next ball when the play order does not give it, the extra balls each
    player had collected in the game, and who slam tilted the machine on purpose."""

    next_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None
    extra_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None
    slammer: m.Player | None = None


def preview_game_ending(
    *,
    game: m.Game,
    player: m.Player,
    ball: int,
    ball_in_play: bool = True,
    next_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None,
    extra_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None,
    slammer: m.Player | None = None,
) -> GameEnding:
    """What a game-ending event (total failure or reset, power loss, fire, slam tilt) on
    `player`'s `ball` of `game` gives every player of the game, as `report_malfunction` would
    record it (R7.3-h, R7.3-i, R7.3-l, R8.4-a, R8.4-c, A32). Writes nothing.

    Each player's next ball follows from the game's play order (`next_turns`): players before
    `player` are on `ball` + 1, he and those after him on `ball`; `next_balls` overrides it per
    player (e.g. after extra balls). `extra_balls`: the extra balls each player had collected
    in the game; the allowable ones are balls owed (R7.3-l), and `ball` may be one of them.
    `slammer`: the player who slam tilted the machine on purpose is owed nothing (R8.4-a,
    A32). Players who forfeited the game play no ball. Raises ValidationError for a player
    outside the group or a ball the rules refuse.
    """
    members = group_player_ids(game.group)
    require_member(player, members, field="player", group=game.group)
    told = EndingReport(next_balls=next_balls, extra_balls=extra_balls, slammer=slammer)
    return owed_by_ending(game, player, ball, ball_in_play, told)


def owed_by_ending(
    game: m.Game, player: m.Player, ball: int, ball_in_play: bool, told: EndingReport
) -> GameEnding:
    """What the game-ending event on `player`'s `ball` of `game` gives every player of it,
    from what the official `told` (`preview_game_ending`; `report_malfunction` records it)."""
    forfeited = forfeited_in(game)
    if player.pk in forfeited:
        raise Refusal(
            {"player": f"{player} forfeited this game: no ball of it is theirs to play."},
            code="forfeited_player",
        )
    if told.slammer is not None:
        require_member(
            told.slammer, group_player_ids(game.group), field="slammer", group=game.group
        )
    order = [p for p in game_play_order(game) if p not in forfeited]
    given = _players_of(told.next_balls, order, field="next_balls")
    extra = _players_of(told.extra_balls, order, field="extra_balls")
    balls_per_game = game.machine.balls_per_game
    collected = {player_key(p): n for p, n in extra.items()}
    _check_ball(game, player, ball, extra_balls=extra.get(player.pk, 0))
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=order)}
    with rules_edge("ball", code="ball_out_of_range"):
        turns = next_turns(
            [player_key(p) for p in order],
            current_player=player_key(player.pk),
            turn=ball,
            balls_per_game=balls_per_game,
            extra_balls_collected=collected,
        )
    turns |= {player_key(p): n for p, n in given.items() if p != player.pk}
    slammer = player_key(told.slammer.pk) if told.slammer is not None else None
    with rules_edge("next_balls", code="next_balls_refused"):
        found = catastrophic_event(
            current_player=player_key(player.pk),
            ball_in_play=ball_in_play,
            next_turn=turns,
            balls_per_game=balls_per_game,
            extra_balls_collected=collected,
            slammer=slammer,
            ruleset=season_ruleset(game.group.meet.season),
        )
    owed = [_owed(p, names[p], turns, found, extra, slammer) for p in order]
    return GameEnding(game_id=game.pk, balls_per_game=balls_per_game, owed=tuple(owed))


def _check_ball(game: m.Game, player: m.Player, ball: int, *, extra_balls: int) -> None:
    """Refuse a ball after `player`'s last one: the machine's balls and the extra balls he
    had collected (R7.3-l)."""
    balls_per_game = game.machine.balls_per_game
    with rules_edge("extra_balls", code="extra_balls_refused"):
        last = last_ball(balls_per_game, extra_balls_collected=extra_balls)
    if ball > last:
        raise Refusal(
            {
                "ball": f"{game.machine.title} is a {balls_per_game}-ball game: ball {ball} is "
                f"after the last one. If {player} was on an extra ball, give the extra balls "
                "they had collected."
            },
            code="ball_out_of_range",
        )


def _players_of(
    given: Mapping[int, int] | Mapping[m.Player, int] | None, order: Sequence[int], *, field: str
) -> dict[int, int]:
    """`given` by player id; a player who does not play the game is refused under `field`."""
    by_id = {ref_id(p): n for p, n in (given or {}).items()}
    strangers = [p for p in by_id if p not in order]
    if strangers:
        names = ", ".join(str(p) for p in m.Player.objects.filter(pk__in=strangers))
        raise Refusal({field: f"Not playing this game: {names}."}, code="not_in_game")
    return by_id


def _owed(
    p: int,
    name: str,
    turns: Mapping[str, int],
    found: Sequence[Malfunction],
    extra: Mapping[int, int],
    slammer: str | None,
) -> Owed:
    key = player_key(p)
    mine = [f for f in found if f.player == key]
    return Owed(
        player_id=p,
        name=name,
        next_ball=turns[key],
        majors=tuple(sorted(f.turn for f in mine if f.kind == "major")),
        catastrophic=tuple(sorted(f.turn for f in mine if f.kind == "catastrophic")),
        balls=compensatory_balls(found, player=key)
        if compensatory_entitled(found, player=key)
        else 0,
        extra_balls=extra.get(p, 0),
        slammer=key == slammer,
    )
