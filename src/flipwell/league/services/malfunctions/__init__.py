"""Malfunctions (§7.3, §7.4), a module per use case:

=================  ==========================================================================
report             report_malfunction: the report and the rules' ruling on it
game_ending        preview_game_ending: what an event that ends the game gives each player
compensatory       request_compensatory_game, record_compensatory_game (R7.3-k..o)
discarded_scores   record_positive_malfunction_replay, record_replay_scores (§7.4)
=================  ==========================================================================

Words (see `flipwell.league.models.incidents`): a *report* is what the LO is told about a
malfunction; the rules classify it (`rule_malfunction`); every malfunction adds a line to the
machine's *maintenance sheet* (R7.3-u).
"""
