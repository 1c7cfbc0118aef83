"""The league's money in the console: balances, entries, dues, and the two writes (record an
entry, reverse one). Money is append-only: a mistake is reversed, never edited (§9)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

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
    reverse = ReverseEntryForm(request.POST if which == "reverse" else None)
    if which == "entry":
        row = run(
            entry,
            lambda d: services.record_ledger_entry(
                league=league,
                kind=d["kind"],
                account=d["account"],
                amount_cents=d["amount_cents"],
                season=get_object_or_404(m.Season, pk=d["season"], league=league)
                if d["season"]
                else None,
                player=get_object_or_404(m.Player, pk=d["player"]) if d["player"] else None,
                reason=d["reason"],
                note=d["note"],
                actor=official(request),
            ),
        )
        if row is not None:
            return done(request, "Ledger entry recorded.")
    elif which == "reverse":
        reversal = run(
            reverse,
            lambda d: services.reverse_ledger_entry(
                entry=get_object_or_404(m.LedgerEntry, pk=d["entry"], league=league),
                reason=d["reason"],
                actor=official(request),
            ),
        )
        if reversal is not None:
            return done(request, "Entry reversed.")
    held = treasury(league)  # every entry, whichever season it belongs to
    dues = treasury(league, season=season).dues if season is not None else ()
    context = {
        "league": league,
        "role": role,
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
        "season": season,
        "entry": entry,
        "reverse": reverse,
    }
    return page(request, "manage/ledger.html", context, failed=bool(which))
