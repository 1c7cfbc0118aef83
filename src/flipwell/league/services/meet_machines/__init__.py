"""Machines at a meet (§5, §5.1, §7.3), a module per use case:

=================  ==========================================================================
next_machine       choose_next_machine (the picker), official_chooses_next_machine (A66)
declarations       declare_machine_unplayable, declare_machine_repaired,
                   announce_machine_problem (before play, R7.3-g)
replacement        replace_machine: a game's machine that became unplayable (R5.1-a, R7.3-s)
=================  ==========================================================================

The picker and the play order come from `flipwell.rules.selection`; these services only load
facts, call the rules, store the new facts and write the audit log.
"""
