"""Template filters of the web app."""
