"""The `flipwell` command line.

flipwell standings FILE   print the standings of a season file (see flipwell.seasonfile)

The other commands work on the league database, through the league app's Django management
commands (``manage.py <command>`` runs the same ones, with underscores: ``import_players``):

flipwell migrate                                 set up (or update) the database
flipwell demo                                    create the demo league, once
flipwell createofficial USERNAME                 a first league official, who may open leagues
flipwell issue-api-token [--league SLUG] --as USER --scope SCOPE ... NAME
                                                 an API token (no --league: an installation
                                                 token, scope leagues, to open leagues)
flipwell revoke-api-token --as USER PREFIX       revoke an API token
flipwell import-players --season ID FILE.csv     enter a roster CSV's players in a season
flipwell export-season --season ID --format csv|json [--output FILE] [--scores FILE]
flipwell backup FILE                             every league's facts in one JSON file
flipwell restore [--trust-unsigned] FILE         a backup (signed here), into an empty database
flipwell serve [--bind HOST:PORT] [--no-collectstatic]
                                                 serve flipwell with gunicorn (production)
flipwell work [--once] [--interval SECONDS]      send the notices' e-mails, queue reminders

`standings` is pure rules and never loads Django. The database commands read their settings
from the environment (see flipwell.settings); a fresh machine needs none. Every command exits
non-zero with a one-line message on stderr, never a traceback, when the user's input is wrong.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from flipwell.rules import RuleError, SeasonResult, Standing, fold_season
from flipwell.rules.checks import fmt
from flipwell.rules.playoffs import MIN_PLAYERS, playoff_qualifier_count
from flipwell.seasonfile import load_season_file

# `flipwell <name>` -> (Django command, one-line help). Hyphens on the console, Django's
# underscores in module names.
DJANGO_COMMANDS = {
    "migrate": ("migrate", "set up (or update) the database"),
    "demo": ("demo", "create the demo league (once) and show its official's password"),
    "createofficial": ("createofficial", "create a league official who may open leagues"),
    "issue-api-token": ("issue_api_token", "issue an API token and print it (once)"),
    "revoke-api-token": ("revoke_api_token", "revoke an API token by its shown prefix"),
    "import-players": ("import_players", "enter a roster CSV's players in a season"),
    "export-season": ("export_season", "export a season as a season file (JSON) or CSV"),
    "backup": ("backup", "write every league's facts to one JSON file"),
    "restore": ("restore", "restore a backup into an empty database"),
    "serve": ("serve", "serve flipwell with gunicorn (checks migrations, collects static)"),
    "work": ("work", "send the queued notices and queue the reminders (--once: one pass)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in DJANGO_COMMANDS:
        return run_django_command(args_list[0], args_list[1:])
    parser = argparse.ArgumentParser(
        prog="flipwell",
        description=__doc__.splitlines()[0],
        epilog="Run `flipwell COMMAND --help` for a command's options.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    standings = commands.add_parser("standings", help="print a season file's standings")
    standings.add_argument("file", help="a season file (JSON)")
    for name, (_django_name, help_text) in DJANGO_COMMANDS.items():
        commands.add_parser(name, help=help_text, add_help=False)  # run above, listed here
    args = parser.parse_args(args_list)
    try:
        name, facts, ruleset = load_season_file(args.file)
        result = fold_season(facts, ruleset=ruleset)
    except (OSError, RuleError) as error:
        print(f"flipwell: {error}", file=sys.stderr)
        return 2
    names = {e.player: f"{e.first_name} {e.last_name}" for e in facts.entrants}
    print(render_standings(name, result, names))
    return 0


def run_django_command(name: str, args: Sequence[str]) -> int:
    """Run `flipwell <name> ARGS` as the league app's Django command; returns the exit status.

    A CommandError (a user's mistake) or a configuration error prints ``flipwell: <message>``
    on stderr and returns its status (1 unless the command says otherwise; 2 for bad settings
    or bad arguments, as argparse does).
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "flipwell.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import get_commands, load_command_class
    from django.core.management.base import CommandError
    from django.db import DatabaseError

    django_name = DJANGO_COMMANDS[name][0]
    try:
        django.setup()
        command = load_command_class(get_commands()[django_name], django_name)
        # As `manage.py` does: bad arguments print the usage and exit 2, not a CommandError.
        command._called_from_command_line = True  # type: ignore[attr-defined]
        parser = command.create_parser("flipwell", name)
        options = vars(parser.parse_args(args))
        positional = options.pop("args", ())
        command.execute(*positional, **options)
    except CommandError as error:
        print(f"flipwell {name}: {error}", file=sys.stderr)
        return error.returncode
    except ImproperlyConfigured as error:
        print(f"flipwell: configuration error: {error}", file=sys.stderr)
        return 2
    except DatabaseError as error:
        print(f"flipwell {name}: database error: {error}".strip(), file=sys.stderr)
        return 1
    except SystemExit as exit_:  # argparse after printing the usage (or --help)
        return exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 2
    except KeyboardInterrupt:
        print(f"flipwell {name}: interrupted", file=sys.stderr)
        return 130
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
