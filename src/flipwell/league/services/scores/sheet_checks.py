"""What entering and confirming a game's score sheet both check, under the game's lock.

Words:
- *score sheet*: every group member's machine score for one game, None for a player who did
  not play it (a forfeit, §2.4), and the order a one-ball playoff gave tied players (R3.2-i).
- *version*: each entry of a game's sheet is a new `ScoreSubmission`; an unconfirmed one may
  be replaced by a later one; once one is confirmed by another player of the group (R3-a) the
  sheet changes only through a correction (`flipwell.league.services.corrections`).
- *held game*: the game row locked for a sheet's write, its meet held shared
  (`MeetHold.SCORES`), so concurrent writes to one game wait for each other.
- *fold with the sheet*: the season folded with the game's new sheet inside the write; a sheet
  that scores a player who forfeited the season before this game rolls the write back (A65).
  Only a confirmed sheet is a fact of the fold (R3-a): an entered one changes no number, so
  its write does not fold the season again (`entered_sheet_shown`); its confirmation does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NoReturn

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import MeetHold, hold_meet, league_changed
from flipwell.league.services._protocol import Write
from flipwell.league.services._season_forfeit import refuse_if_season_forfeited


def game_held_for_scores(game_id: int) -> m.Game:
    """The game locked for a score sheet's write, its meet held shared (`MeetHold.SCORES`),
    with its group, meet, season and league."""
    hold_meet(MeetHold.SCORES, game=game_id)
    return (
        m.Game.objects.select_for_update(of=("self",))
        .select_related("group__meet__season__league")
        .get(pk=game_id)
    )


def fold_with_sheet(write: Write, game: m.Game, sheet: Mapping[int, int | None]) -> None:
    """Fold the season with the game's new sheet (`Write.refold`); a sheet scoring a player
    who forfeited the season before this game is refused, rolling the write back (A65)."""
    write.season = game.group.meet.season
    write.only_meets(game.group.meet)
    folded = write.refold()
    refuse_if_season_forfeited(
        game=game, players=_scored(sheet), field="scores", refused="their score", result=folded
    )


def entered_sheet_shown(game: m.Game, sheet: Mapping[int, int | None]) -> None:
    """An entered sheet waits for confirmation and is no fact of the season's fold yet (R3-a):
    the season keeps its fold and revision (no fold is computed or stored for the write),
    and its league gets a new revision that keeps the standings part, so the pages showing
    the entry change and the standings do not. A sheet scoring a player who forfeited the
    season before this game is refused from the fold as it stands (A65); its confirmation
    checks again on the fold with the sheet."""
    refuse_if_season_forfeited(
        game=game, players=_scored(sheet), field="scores", refused="their score"
    )
    league_changed(game.group.meet.season.league_id)


def _scored(sheet: Mapping[int, int | None]) -> list[int]:
    """The players the sheet gives a machine score (not a forfeit)."""
    return [p for p, score in sheet.items() if score is not None]


def versions_of(game: m.Game) -> list[m.ScoreSubmission]:
    """Every version of the game's sheet, oldest first, with who entered and who confirmed
    each (one query: a game has a few)."""
    return list(
        m.ScoreSubmission.objects.filter(game=game)
        .select_related("entered_by", "confirmed_by")
        .order_by("version")  # the model's ordering by game would join its group and meet
    )


def version_among(versions: Sequence[m.ScoreSubmission], pk: int) -> m.ScoreSubmission:
    """The version with id `pk` among a game's `versions`, read again under the game's lock."""
    found = next((v for v in versions if v.pk == pk), None)
    if found is None:
        raise m.ScoreSubmission.DoesNotExist(f"score submission {pk} is not a sheet of its game")
    return found


def check_not_confirmed(
    game: m.Game, versions: Sequence[m.ScoreSubmission], *, refused: str = ""
) -> None:
    """ConflictError naming who confirmed `game` (whose sheets are `versions`, oldest first),
    if anyone did; `refused` says what was not done."""
    winner = next(
        (v for v in versions if v.confirmed_by_id is not None and not v.is_correction), None
    )
    if winner is not None:
        then = f"; {refused}: " if refused else "; "
        raise ConflictError(
            f"Game {game.number} of group {game.group.number} was already confirmed by "
            f"{winner.confirmed_by} (version {winner.version}){then}a change now needs a "
            "correction (R3-b).",
            code="game_already_confirmed",
        )


def check_sheet(game: m.Game, sheet: Mapping[int, int | None], members: Sequence[int]) -> None:
    strangers = [p for p in sheet if p not in members]
    missing = [p for p in members if p not in sheet]
    wrong = [
        (player, score)
        for player, score in sheet.items()
        if score is not None
        and (isinstance(score, bool) or not isinstance(score, int) or score < 0)
    ]
    if strangers or missing or wrong:
        _refuse_sheet(game, strangers, missing, wrong)
    check_forfeits(game, sheet)


def _refuse_sheet(
    game: m.Game,
    strangers: Sequence[int],
    missing: Sequence[int],
    wrong: Sequence[tuple[int, object]],
) -> NoReturn:
    """ValidationError naming the first thing wrong with a sheet: players not in the group,
    members left out, or a score that is not a whole number of 0 or more. The players' names
    are read only here: a good sheet needs none."""
    asked = [*strangers, *missing, *(p for p, _ in wrong)]
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=asked)}
    if strangers:
        who = ", ".join(names.get(p, f"player #{p}") for p in strangers)
        raise Refusal(
            {"scores": f"{who} is not in group {game.group.number}."},
            code="not_in_group",
            players=strangers,
        )
    if missing:
        raise Refusal(
            {
                "scores": f"Every player of the group needs a score, or none if they did not "
                f"play (a forfeit): missing {', '.join(names[p] for p in missing)}."
            },
            code="scores_missing",
        )
    player, score = wrong[0]
    raise Refusal(
        {"scores": f"{names[player]}'s score must be a whole number of 0 or more, got {score!r}."},
        code="invalid_score",
        players=[player],
        part="machine_score",
    )


def check_forfeits(game: m.Game, sheet: Mapping[int, int | None]) -> None:
    """Refuse a score for a player absent for the rest of the match (from this game or an
    earlier one) or with a recorded forfeit of this game (R2.4-a)."""
    absent = absent_at(match_absences([game.group_id]).get(game.group_id, {}), game.number)
    gone = [p for p in absent if sheet.get(p) is not None]
    if gone:
        names = m.Player.objects.in_bulk(gone)
        rows = m.MatchAbsence.objects.filter(group_id=game.group_id, player_id__in=gone)
        since = dict(rows.values_list("player_id", "from_game"))
        first = sorted(gone, key=lambda p: str(names[p]))[0]
        raise Refusal(
            {
                "scores": f"{names[first]} is absent for the rest of the match (recorded from "
                f"game {since[first]}): game {game.number} is their forfeit, so their score "
                "stays empty (R2.4-a)."
            },
            code="absent_for_the_match",
            players=[first],
            part="machine_score",
        )
    forfeited = m.Forfeit.objects.filter(game=game).select_related("player")
    scored = [f.player for f in forfeited if sheet.get(f.player_id) is not None]
    if scored:
        who = ", ".join(str(p) for p in scored)
        raise Refusal(
            {"scores": f"{who} forfeited this game (recorded): leave the score empty (R2.4-a)."},
            code="forfeited_player",
            players=[p.pk for p in scored],
            part="machine_score",
        )
