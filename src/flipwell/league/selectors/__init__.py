"""Selectors: read-only functions that load stored facts, ask `flipwell.rules` what follows
from them, and return frozen dataclasses ready for a template or the JSON API.

Selectors never write. Each runs a fixed number of SQL queries whatever the league's size
(rows are loaded per kind, then put together in Python). Import them from their modules:

- `meet_board` (a package): the open meet's board, ``meet_board.board.meet_board`` (its
  docstring says more); its next games, ``meet_board.next_games``.
- `standings`: ``standings``, ``ladder``, ``player_history`` (§2-§4, §6.1 race).
- `machines`: ``maintenance_sheet`` (R7.3-u), ``special_rulings_in_force`` (RA-a).
- `treasury`: ``treasury`` (§9).
- `playoffs` (a package): ``playoffs.bracket.playoff_bracket``, the night's facts
  ``playoffs.facts.load_playoff_facts`` (§6).
- `public_pages` (a package): a module per kind of public page (seasons, meets, machines,
  tv, sheets).
- `notices`: ``notice_subscription`` (a league's own), ``link_subscriptions``, ``player_notices``,
  ``notice_queue`` (e-mail notices).
- `signups`: the question about the next season (``season_call``, ``call_page`` for the
  console, ``link_question`` for a personal link, ``open_signups`` for the public form).
- `season_folds`: a season folded fresh from its stored facts (``fold``, ``FoldedSeason``) for an
  export or a report, and ``check_facts_fold`` for a restore.
- `lookups`, `sheet_rows`: one row by the id a URL or a form names, as the league's, meet's,
  group's or playoff match's (the views ask the ORM nothing themselves).
"""
