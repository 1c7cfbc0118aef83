"""Data exchange: backups of every league's facts, season exports and the demo league.

Words:
- *backup*: every fact of every league, and the accounts of the people who act in them, in one
  versioned JSON file (`flipwell.league.exchange.backup`).
- *export*: one season, as a season file a person or `flipwell standings` can read, or as CSV
  tables for a spreadsheet (`flipwell.league.exchange.exports`).
- *demo league*: a realistic league made from bundled season files (`.demo`).
"""
