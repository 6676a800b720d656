"""conteur — rules engine and live combat tracker for French tabletop role-playing games."""

__version__ = "0.1.0"
