"""Use cases of the playoff matches (§6.4, §6.5, §6.6): a match's games (`games`), its
tiebreaker (`tiebreakers`), a player late or missing at its start (`missing_players`), and
what each reads first (`match_facts`)."""
