"""The test run's PostgreSQL backend (`base`): Django's, with a flush that empties only the
tables that hold rows."""
