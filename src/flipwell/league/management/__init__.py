"""Django management commands of the league app (also run by the `flipwell` console script)."""
