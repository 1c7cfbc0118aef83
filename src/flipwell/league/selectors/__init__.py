"""Selectors: read-only functions that load stored facts, ask `flipwell.rules` what follows
from them, and return frozen dataclasses ready for a template or the JSON API.

Selectors never write. Each runs a fixed number of SQL queries whatever the league's size
(rows are loaded per kind, then put together in Python). Import them from their modules:

- `meet_board`: the open meet's board (another module's docstring says more).
- `standings`: ``standings``, ``ladder``, ``player_history`` (§2-§4, §6.1 race).
- `machines`: ``maintenance_sheet`` (R7.3-u), ``special_rulings_in_force`` (RA-a).
- `treasury`: ``treasury`` (§9).
- `playoffs`: ``playoff_bracket`` (§6).
- `notices`: ``notice_subscription`` (a league's own), ``link_subscriptions``, ``player_notices``,
  ``notice_queue`` (e-mail notices).
- `season_folds`: a season folded fresh from its stored facts (``fold``, ``FoldedSeason``) for an
  export or a report, and ``check_facts_fold`` for a restore.
- `lookups`, `sheet_rows`: one row by the id a URL or a form names, as the league's, meet's,
  group's or playoff match's (the views ask the ORM nothing themselves).
"""
