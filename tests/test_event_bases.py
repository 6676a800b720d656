"""The pieces event types share (``conteur.engine.events``, ``conteur.engine.battlemap``):
a veiled line named by its key, bases that are no event type of their own, several
combatant ids read as names, and the cover-zone events of two rulesets."""

from __future__ import annotations

import dataclasses

from conteur.engine.battlemap import CoverZone, ZoneDrawn
from conteur.engine.events import Event, event_from_dict, event_types
from conteur.rulesets.hunter.events import HunterZoneDrawn, HunterZoneErased
from conteur.rulesets.hunter.state import HunterState
from conteur.rulesets.vtm.events import (
    CoverZoneDrawn,
    DamageRolled,
    DamageTaken,
    PoolRoll,
    SuccessesShared,
    TurnStarted,
)
from conteur.rulesets.vtm.packs.house_ranged.events import BurstShared, SuppressionLaid
from conteur.rulesets.vtm.ranged import SprayShared
from conteur.rulesets.vtm.state import VtmState

NAMES = {"ann": "Ann", "bob": "Bob"}


def test_a_veiled_line_is_its_key_filled_with_the_fields_as_in_the_log() -> None:
    hit = DamageRolled(target="bob", pool=6, damage_type="lethal", successes=3)
    assert hit.veiled("en", NAMES) == "Bob is hit (lethal)"
    assert hit.veiled("fr", NAMES) == "Bob est touché (létaux)"
    # the key may depend on the fields; an event without one leaves nothing
    assert DamageTaken(target="bob", levels=0, damage_type="bashing").veil_key() == (
        "ev.DamageTaken.veiled.unhurt"
    )
    assert TurnStarted(turn=2).veiled("en", NAMES) is None


def test_a_base_is_no_event_type_and_its_fields_come_first() -> None:
    types = event_types()
    for base in (PoolRoll, SuccessesShared, ZoneDrawn):
        assert base.__name__ not in types
    assert types["BurstShared"] is BurstShared and types["SprayShared"] is SprayShared
    own = [f.name for f in dataclasses.fields(SprayShared) if f.name not in _base_fields()]
    assert own == ["attacker", "successes", "shares", "lone"]
    burst = BurstShared(attacker="ann", successes=3, shares=(("bob", 2), ("ann", 1)))
    assert event_from_dict(burst.to_dict()) == burst


def test_shares_and_targets_read_as_names() -> None:
    burst = BurstShared(attacker="ann", successes=3, shares=(("bob", 2), ("cid", 1)))
    shown = burst.params(NAMES)
    assert (shown["shares"], shown["targets"]) == ("Bob 2, cid 1", "Bob, cid")
    assert burst.veiled("en", NAMES) == "Ann fires a burst: Bob, cid"
    laid = SuppressionLaid(fighter="ann", weapon="smg", successes=2, targets=("bob", "ann"), turn=1)
    assert laid.params(NAMES)["targets"] == "Bob, Ann"
    assert laid.to_dict()["targets"] == ["bob", "ann"]  # the JSON keeps the ids


def test_the_cover_zone_events_of_two_rulesets_draw_and_erase_alike() -> None:
    points = ((0.0, 0.0), (4.0, 0.0), (4.0, 3.0))
    vtm = VtmState(fighters={}, options={})
    CoverZoneDrawn(zone="z1", points=points, level="light").apply(vtm)
    assert vtm.zones["z1"] == CoverZone("z1", points, "light")
    assert CoverZoneDrawn(zone="z1", points=points, level="light").describe("en") == (
        "Cover zone z1: light cover"
    )
    hunter = HunterState(fighters={}, options={})
    HunterZoneDrawn(zone="z1", points=points, level="partial").apply(hunter)
    assert hunter.zones["z1"] == CoverZone("z1", points, "partial")
    assert HunterZoneDrawn(zone="z1", points=points, level="partial").describe("en") == (
        "Cover zone z1: partial cover"
    )
    HunterZoneErased(zone="z1", level="partial").apply(hunter)
    assert "z1" not in hunter.zones


def _base_fields() -> set[str]:
    return {f.name for f in dataclasses.fields(Event)}


def test_every_event_type_is_a_frozen_record_of_keyword_only_fields() -> None:
    """Declared with no decorator of its own, each event type is made a frozen dataclass
    whose fields are keyword-only (``Event.__init_subclass__``): an event is never changed
    once logged, and no row of positional numbers hides what they mean."""
    from conteur.engine import available_rulesets, event_types, get_ruleset

    for name in available_rulesets():
        get_ruleset(name)  # its events registered
    types = event_types()
    assert len(types) > 100
    for name, cls in types.items():
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, name  # type: ignore[attr-defined]
        assert all(f.kw_only for f in dataclasses.fields(cls)), name
        assert "__dataclass_fields__" in cls.__dict__, name  # its own fields, not its base's
