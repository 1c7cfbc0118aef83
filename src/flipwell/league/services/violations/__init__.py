"""Violations (§8), a module per use case:

=================  ==========================================================================
penalties          record_violation: the violation and its §8.5 penalty
remedies           record_victim_remedy: a victim's remedy and the violator's charge
                   (§8.2, §8.3)
restarts           record_game_restart: a game voided and restarted for a wrong game count
                   (§8.6)
=================  ==========================================================================

A violation is stored as a fact with its timing (A27); its §8.5 penalty is applied by the season
fold whenever the standings are read, so no points are stored here.
"""
