"""The Django app that stores a league's facts; flipwell.rules computes everything from them.

Layout: ``models/`` (thin models: fields, constraints, ``__str__``), ``services/`` (one use case
per function, the only code that writes), ``audit.py`` (the audit log helper), ``admin.py``.
"""
