"""The JSON API under /api/v1/: schemas and thin endpoints over services and selectors."""
