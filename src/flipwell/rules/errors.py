"""The one exception the rules library raises for bad input.

A `RuleError` is a user's mistake (a negative score, an unresolved tie, five players to group):
its message names the problem and, where it helps, what would be allowed.
"""


class RuleError(ValueError):
    """Input that the FWPL rules cannot accept; the message says what is wrong."""
