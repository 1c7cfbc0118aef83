"""The `flipwell` command line.

flipwell standings FILE   print the standings of a season file (see flipwell.seasonfile)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from flipwell.rules import RuleError
from flipwell.rules.checks import fmt
from flipwell.rules.playoffs import MIN_PLAYERS, playoff_qualifier_count
from flipwell.rules.season import SeasonResult, Standing, fold_season
from flipwell.seasonfile import load_season


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="flipwell", description=__doc__.splitlines()[1])
    commands = parser.add_subparsers(dest="command", required=True)
    standings = commands.add_parser("standings", help="print a season file's standings")
    standings.add_argument("file", help="a season file (JSON)")
    args = parser.parse_args(argv)
    try:
        name, facts = load_season(args.file)
        result = fold_season(facts)
    except (OSError, RuleError) as error:
        print(f"flipwell: {error}", file=sys.stderr)
        return 2
    names = {e.player: f"{e.first_name} {e.last_name}" for e in facts.entrants}
    print(render_standings(name, result, names))
    return 0


def render_standings(name: str, result: SeasonResult, names: dict[str, str]) -> str:
    """The standings as a plain-text table a person can read at a glance."""
    header = ("#", "Player", "Points", "Games", "Forfeits", "Notes")
    rows = [
        (
            str(rank),
            names.get(s.player, s.player),
            fmt(s.league_points),
            str(s.games_played),
            _forfeits(s),
            _notes(s),
        )
        for rank, s in enumerate(result.standings(), start=1)
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    right = {0, 2, 3}

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    meets = len(result.meets)
    title = f"{name}: standings after {meets} meet{'s' if meets != 1 else ''}"
    rule = "-" * len(line(header))
    body = [line(r) for r in rows]
    cut = _playoff_line(result.standings())
    if cut is not None:
        after, text = cut
        body.insert(after, f"{'- ' + text + ' ':-<{len(rule)}}")
    return "\n".join([title, "", line(header), rule, *body])


def _playoff_line(standings: Sequence[Standing]) -> tuple[int, str] | None:
    """Where the playoff cut falls in the table, and its caption (§6.1, §6.2, A05)."""
    eligible = [s.active and s.games_played > 0 for s in standings]
    if sum(eligible) < MIN_PLAYERS:
        return None
    qualifiers = playoff_qualifier_count(sum(eligible))
    seen = 0
    for row, is_eligible in enumerate(eligible, start=1):
        seen += is_eligible
        if seen == qualifiers:
            return row, f"playoff line: top {qualifiers} of {sum(eligible)} eligible players"
    return None


def _forfeits(s: Standing) -> str:
    if s.forfeits == s.countable_forfeits:
        return str(s.forfeits)
    return f"{s.forfeits} ({s.countable_forfeits} countable)"


def _notes(s: Standing) -> str:
    notes = []
    if s.season_forfeited_at is not None:
        notes.append(f"season forfeited at meet {s.season_forfeited_at}")
    if s.credit_used_at is not None:
        notes.append(f"50% credit at meet {s.credit_used_at}")
    if s.offenses:
        notes.append(f"{s.offenses} serious violation{'s' if s.offenses > 1 else ''}")
    return "; ".join(notes)


if __name__ == "__main__":
    sys.exit(main())
