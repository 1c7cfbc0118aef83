"""flipwell: run pinball leagues played under the Flip Well Pinball League (FWPL) rules.

`flipwell.rules` is the rulebook as a pure library; importing this package imports no web
framework.
"""

__version__ = "0.1.0"
