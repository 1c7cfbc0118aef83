"""The JSON shapes of the API: every request body and response, each field described, one
module per resource (`common`, `leagues`, `players`, `meets`, `choices` (a group's next
machine), `sheets`, `corrections`, `standings`, `incidents`, `machines`, `violations`,
`ledger`, `rulings`, `playoffs`, `playoff_corrections`, `ifpa`, `people`, `officials`, `setup`,
`roster`, `amendments`, `ratings`, `me`, `meet_records`, `notices`, `photos`); each is
imported from its module (``from flipwell.api.schemas.meets import MeetOut``).

Words:
- *league points* are exact fractions in flipwell (a §2.4 credit can be a third of a point).
  The API gives them as JSON numbers: exact when a decimal can write them (``179.5``), else
  rounded to 6 places; the ``*_exact`` field beside each always holds the exact value as a
  fraction string (``"359/2"``, ``"214"``). A schema reads the selector's `Fraction` once
  for both: `Points` and `ExactPoints`.
- *machine scores* are JSON integers, never floats, whatever their size.
- a *page* is one slice of a list: ``results`` and ``next``, the URL of the next slice (null
  on the last), so a list is never cut silently.
- an *input schema* (`InputSchema`, every request body) is strict: a field it does not know
  is refused, a number must be a JSON number (``true`` and ``"5"`` are not ``5``, ``5.0`` is
  not an integer), a yes/no must be ``true`` or ``false``; dates and moments are ISO 8601
  strings, as JSON has no date. A list of scores names each player once.
- an *output schema* reads a service's or selector's result as it is (a stored row, a rules
  outcome, a selector's dataclass): its attributes, and a ``resolve_<field>`` for what it
  reshapes (a player key as an id, a pair as an object).
"""
