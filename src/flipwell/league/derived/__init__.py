"""Derived data: what is computed from the league's facts and kept, and where.

Words:
- *season fold*: the rules' fold of a season's facts under its ruleset (`results`): every
  standing, ladder, board and player page derives from it.
- *prefix*: the fold's state after the season's leading closed meets
  (`flipwell.rules.season_prefix`), kept so a write folds only tonight's meet on it
  (`results.write_fold`); valid while the season's revision is the one it was stored or
  carried at (each write of tonight's meet carries it to its new revision).
- *memo*: a map kept in this process's memory (`caches.LeastRecentlyUsed`); *stored*: kept in
  the database, read by every worker.
- *revision*: see `flipwell.league.models.results`. Every key of derived data holds what it
  was derived from (a revision, the code's build), so no entry is ever invalidated: a change
  gives a new key, and the old one is simply never asked again.
- *hand-compiled query* (`compiled`): a hot ORM query compiled to SQL once per process and
  database engine, then run directly (and, on PostgreSQL, several at once in psycopg's
  pipeline): code, not data, kept here because it is a process-wide memo too.

Modules: `results` (the season's fold: from memory, else stored, else computed and stored),
`caches` (the memos and stored copies), `compiled` (the hand-compiled queries).

Every cache and derived value flipwell keeps outside a request, but the pages and the
servers' own (`flipwell.serving`), is in this table (tests/test_caches_listed.py holds it):
what it holds, its key, when an entry is dropped, who reads it. "Once per process" is a
function's ``functools.cache``: computed on first use, kept until the process ends.

+----------------------------+-------------------+----------------+-----------------+--------------+
| cache                      | holds             | key            | dropped         | read by      |
+============================+===================+================+=================+==============+
| caches._folds (fold memo)  | a season's fold   | (season,       | least recently  | results      |
|                            | (numbers or       | revision,      | used past       |              |
|                            | explained) in     | explained)     | FOLD_MEMO_SIZE; |              |
|                            | this process      |                | forget          |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| stored folds               | the same,         | fold:<season>: | overwritten by  | results      |
| (DerivedResult rows)       | pickled, for      | <kind>:<build> | the next        | (written in  |
|                            | every worker      | and the        | revision's      | each refold) |
|                            |                   | revision       | fold; other     |              |
|                            |                   |                | builds' rows at |              |
|                            |                   |                | this build's    |              |
|                            |                   |                | first           |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| caches._prefixes (prefix   | a season's prefix | (season, its   | least recently  | results.     |
| memo)                      | (its closed       | stored row,    | used past       | write_fold   |
|                            | meets folded) in  | when written)  | FOLD_MEMO_SIZE; |              |
|                            | this process      |                | forget          |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| stored prefixes            | the same,         | prefix:        | replaced when a | results.     |
| (DerivedResult rows)       | pickled, for      | <season>:      | write folds the | write_fold   |
|                            | every worker      | <build> and    | season whole or |              |
|                            |                   | the revision   | more meets      |              |
|                            |                   | of the last    | closed; other   |              |
|                            |                   | write that     | builds' rows at |              |
|                            |                   | kept it        | the next store  |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| caches._ratings (ratings   | every person's    | every public   | replaced by the | selectors.   |
| memo)                      | rating in the     | season's       | next key (one   | ratings      |
|                            | installation      | revision, and  | entry); forget  |              |
|                            |                   | the merges     |                 |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| caches.build               | a fingerprint of  | none (once per | never: new code | stored       |
|                            | the code and      | process)       | is a new        | folds,       |
|                            | templates         |                | process         | http_cache,  |
|                            |                   |                |                 | wsgi         |
+----------------------------+-------------------+----------------+-----------------+--------------+
| caches._memos              | every             | none           | never           | forget       |
|                            | LeastRecentlyUsed |                |                 |              |
|                            | made (the memos)  |                |                 |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| CompiledQuery._compiled    | a hot query's SQL | database       | never: code,    | compiled     |
|                            | and parameters    | engine         | not data        |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| compiled._EVERY            | every             | none           | never           | compile_     |
|                            | CompiledQuery     |                |                 | every_query  |
|                            | made (the modules |                |                 | (wsgi)       |
|                            | below)            |                |                 |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| ruleset._ruleset_hints     | Ruleset's field   | none (once per | never           | rules.       |
|                            | types             | process)       |                 | ruleset      |
+----------------------------+-------------------+----------------+-----------------+--------------+
| validators.canonical_zones | this machine's    | none (once per | never           | validate_    |
|                            | canonical time    | process)       |                 | time_zone    |
|                            | zones             |                |                 |              |
+----------------------------+-------------------+----------------+-----------------+--------------+
| validators.reserved_slugs  | the first         | none (once per | never           | the league   |
|                            | segments of       | process)       |                 | slug's check |
|                            | flipwell's URLs   |                |                 |              |
+----------------------------+-------------------+----------------+-----------------+--------------+

Hand-compiled queries made at import (each a `compiled.CompiledQuery` in ``_EVERY``):
`flipwell.league.adapters.season_queries` (a season's facts, 14),
`flipwell.league.selectors.meet_board.queries` (the meet board, 12) and
`flipwell.league.selectors.revisions` (the revision lookups of `flipwell.serving.http_cache`,
6).

`caches.forget` empties every memo of this process, the page memo of `flipwell.serving.pages`
included (tests, and a restore in a running process).
"""
