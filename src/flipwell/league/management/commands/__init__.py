"""`manage.py demo`, `import_players`, `export_season`, `backup`, `restore`."""
