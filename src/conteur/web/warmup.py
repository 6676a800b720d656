"""What a server does once before its first page: the work the first reader would
otherwise wait for (0.4 s at rest, seconds on a loaded machine; docs/performance.md) —
the templates compiled, every installed ruleset imported and its rule catalogue read, and
each open encounter read and drawn once for its game master (its snapshot is then cached:
a restart does not make the GM wait)."""

from __future__ import annotations

from collections.abc import Callable

from conteur.engine.rules import all_rule_texts
from conteur.i18n import ConteurError
from conteur.store import Store

from .templating import compile_all

LIMIT = 8
"""At most this many open encounters are drawn ahead (the newest first)."""


def warm_up(store: Store, draw: Callable[[int], object]) -> tuple[int, int, int]:
    """Compile the templates, read the rule catalogues, and ``draw`` the open encounters
    (newest first, at most ``LIMIT``): how many of each."""
    templates, rules = compile_all(), len(all_rule_texts())
    open_ids = sorted(
        (
            info.id
            for campaign in store.list_campaigns()
            for info in store.list_encounters(campaign.id, status="open")
        ),
        reverse=True,
    )[:LIMIT]
    drawn = 0
    for eid in open_ids:
        try:
            draw(eid)
        except ConteurError:  # an encounter that cannot be read is said when it is opened
            continue
        drawn += 1
    return templates, rules, drawn
