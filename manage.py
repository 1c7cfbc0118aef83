#!/usr/bin/env python
"""Django's command-line utility for flipwell (``./manage.py migrate``, ``runserver``, ...).

Settings come from the environment (see ``docs/configuration.md``); for local development
``DEBUG=1 ./manage.py runserver`` needs nothing else.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "flipwell.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
