"""One row by the id a URL or a form names, looked up as the league's (or season's, or meet's)
it is asked of: the console's and the public pages' lookups (`flipwell.web.views`).

Words: a row *of the league* is one its pages may name; another league's (a guessed or stale
id) is None, which the page shows as a 404 or a refusal. One query each, joined to what the
page reads of it next.
"""

from __future__ import annotations

from flipwell.league import models as m


def league_season(league: m.League, season_id: int) -> m.Season | None:
    """The season with id `season_id` if it is one of `league`'s."""
    return m.Season.objects.select_related("league").filter(pk=season_id, league=league).first()


def league_meet(league: m.League, meet_id: int) -> m.Meet | None:
    """The meet with id `meet_id` if it is of one of `league`'s seasons."""
    return (
        m.Meet.objects.select_related("season__league")
        .filter(pk=meet_id, season__league=league)
        .first()
    )


def meet_game(meet: m.Meet, game_id: int) -> m.Game | None:
    """The game with id `game_id` if it is of one of `meet`'s groups."""
    return m.Game.objects.select_related("group").filter(pk=game_id, group__meet=meet).first()


def season_meet(season_id: int, number: int) -> m.Meet | None:
    """The meet numbered `number` of the season with id `season_id`, None when not scheduled."""
    return m.Meet.objects.filter(season_id=season_id, number=number).first()


def season_entry(season: m.Season, player_id: int) -> m.SeasonEntry | None:
    """The entry of the player with id `player_id` in `season`, with the player."""
    return (
        m.SeasonEntry.objects.select_related("player")
        .filter(season=season, player_id=player_id)
        .first()
    )


def league_api_token(league: m.League, token_id: int) -> m.ApiToken | None:
    """The API token with id `token_id` if it is one of `league`'s."""
    return m.ApiToken.objects.filter(league=league, pk=token_id).first()


def playoff_night_of(season: m.Season | None) -> m.PlayoffNight | None:
    """The playoff night of `season`, None before it is planned (or without a season)."""
    if season is None:
        return None
    return m.PlayoffNight.objects.filter(season=season).first()


def playoff_night_id(season: m.Season) -> int | None:
    """The id of `season`'s playoff night, None before it is planned."""
    return m.PlayoffNight.objects.filter(season=season).values_list("pk", flat=True).first()
