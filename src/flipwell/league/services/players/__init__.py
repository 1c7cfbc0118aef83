"""Use cases that enter players in a season, one by one (`registration`) or from a roster CSV
(`roster_import`), and correct them (`editing`); how a player is recognised (`recognition`)
and the meet he joins at (`joining`): each module's docstring defines its words."""
