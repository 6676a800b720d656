"""The web app's routes, one router a part of the site (``create_app`` includes them all):
``auth`` (login, logout), ``settings`` (password, sessions, language), ``campaigns``,
``characters``, ``encounters`` (the GM's page and its commands), ``rolls`` (the dice pad),
``odds``, ``player`` (the players' pages), ``table`` (the table's screen)."""
