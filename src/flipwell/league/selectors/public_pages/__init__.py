"""What the public pages, the TV and the printed sheets show: one selector per page.

Words:
- *current season*: the season being played (`flipwell.league.selectors.seasons`); its
  standings are the league's home page. A season being prepared is listed nowhere until its
  first meet starts (its own address still shows it).
- *playoff season*: the newest season with a playoff night; the playoffs page shows it.
- *group view*: a group of the meet board as a reader sees it: players in the order they play
  the current (or next) game, every game's scores in the group's order with each player's
  place, and one sentence saying where the match stands (who picks the next machine).
- *league staff*: a superuser or a user with a role (official or scorekeeper) in the league;
  only they see the score-sheet QR codes (a code is a key to a group's score sheet).

Nothing private is returned: no ledger, no rulings' notes, no official's name. Every selector
runs a fixed number of queries whatever the league's size.

The modules, one per kind of page: `seasons` (the league list, standings, a player's season,
high scores, the playoffs), `meets` (a meet's board), `machines` (machines, maintenance sheet,
one machine), `tv` (the venue's TV) and `sheets` (printed score sheets).
"""
