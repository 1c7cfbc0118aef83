"""The league's money in the console: balances, entries, dues, and the two writes (record an
entry, reverse one). Money is append-only: a mistake is reversed, never edited (§9)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import league_players, league_seasons
from flipwell.league.selectors.treasury import treasury
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.formatting import money
from flipwell.web.forms import LedgerEntryForm, ReverseEntryForm
from flipwell.web.views.manage._common import action, done, official, page, run


@console_page(LO_ONLY)
def ledger(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """Balances, the ledger, dues of the current season; record or reverse an entry."""
    seasons = league_seasons(league)
    season = next((s.season for s in seasons if s.current), None)
    which = action(request)
    entry = LedgerEntryForm(
        request.POST if which == "entry" else None,
        players=league_players(league),
        seasons=[(s.season.pk, s.season.name) for s in seasons],
        initial={"season": season.pk if season else None},
    )
    reverse = ReverseEntryForm(request.POST if which == "reverse" else None, league=league)
    if which == "entry":
        row = run(entry, services.record_ledger_entry, league=league, actor=official(request))
        if row is not None:
            return done(request, "Ledger entry recorded.")
    elif which == "reverse":
        reversal = run(reverse, services.reverse_ledger_entry, actor=official(request))
        if reversal is not None:
            return done(request, "Entry reversed.")
    context = {
        "league": league,
        "role": role,
        **_money(league, season),
        "season": season,
        "entry": entry,
        "reverse": reverse,
    }
    return page(request, "manage/ledger.html", context, failed=bool(which))


def _money(league: m.League, season: m.Season | None) -> dict[str, Any]:
    """The page's money: every entry, whichever season it belongs to, the balances, and the
    dues of the current season."""
    held = treasury(league)
    dues = treasury(league, season=season).dues if season is not None else ()
    return {
        "treasury": held,
        "balances": [
            ("Dues", money(held.dues_cents)),
            ("Kitty", money(held.kitty_cents)),
            ("Treasury", money(held.treasury_cents)),
            ("Total", money(held.total_cents)),
        ],
        "dues": [
            (line.player.name, money(line.owed), money(line.paid), money(line.outstanding))
            for line in dues
        ],
    }
