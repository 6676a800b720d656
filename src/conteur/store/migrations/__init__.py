"""Alembic migrations of the store, shipped in the package and applied by ``open_store``."""
