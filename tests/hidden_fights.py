"""Fights with hidden combatants, one per shipped ruleset, for the engine's and the tracker's
tests: a player's character, a visible NPC, and two hidden NPCs — ``zorba``, revealed when it
acts, and ``quincy``, revealed when the game master says so.

``setup`` is played with the program's dice (a seed) in whatever order the initiative
gives (a line refused as "not yet" waits, as ``conteur play`` does); then ``acts`` gives
each combatant's line, played for whoever is due until ``zorba`` acts."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from conteur.dice import SeededDice
from conteur.engine import Command, Encounter
from conteur.engine.hidden import parse_line
from conteur.i18n import ConteurError

VTM_JACK = {
    "nom": "Jack Malone",
    "type": "mortel",
    "Force": 3,
    "Dextérité": 3,
    "Vigueur": 3,
    "Perception": 2,
    "Astuce": 3,
    "Bagarre": 3,
    "Esquive": 2,
    "Athlétisme": 2,
    "Volonté": 4,
}


def _vtm_npc(cid: str, name: str, side: str, pos: tuple[int, int]) -> dict[str, Any]:
    sheet = {**VTM_JACK, "nom": name}
    return {"id": cid, "side": side, "position": list(pos), "sheet": sheet}


HUNTER_ANA = {
    "nom": "Ana",
    "type": "chasseur",
    "force": 2,
    "dextérité": 3,
    "vigueur": 2,
    "astuce": 3,
    "calme": 3,
    "mains nues": 2,
    "armes à feu": 3,
    "arme": "heavy_pistol",
}


def _hunter_npc(cid: str, name: str, side: str, pos: tuple[int, int]) -> dict[str, Any]:
    return {
        "id": cid,
        "nom": name,
        "type": "monstre",
        "camp": side,
        "force": 4,
        "dextérité": 3,
        "vigueur": 3,
        "astuce": 3,
        "calme": 2,
        "mains nues": 3,
        "dégâts à mains nues": "L",
    }


WESTERN_BILL = {
    "nom": "Bill Tanner",
    "caractéristiques": {"FORCE": 12, "RÉSISTANCE": 11, "CONSTITUTION": 12, "RAPIDITÉ": 12},
    "compétences": {"tir visé au pistolet": 56, "tir instinctif au pistolet": 40},
    "armes": ["colt_saa"],
}


def _western_npc(cid: str, name: str, side: str, pos: tuple[int, int]) -> dict[str, Any]:
    return {
        "id": cid,
        "nom": name,
        "camp": side,
        "position": list(pos),
        "caractéristiques": {"FORCE": 11, "RÉSISTANCE": 10, "CONSTITUTION": 11, "RAPIDITÉ": 12},
        "compétences": {"tir visé au pistolet": 50, "tir instinctif au pistolet": 40},
        "armes": ["colt_saa"],
    }


@dataclass(frozen=True)
class HiddenFight:
    ruleset: str
    pc_id: str
    pc_sheet: Mapping[str, Any]
    pc_side: str
    npcs: tuple[dict[str, Any], ...]
    """The visible NPC, then ``zorba`` and ``quincy`` (both with ``hidden: true``)."""
    setup: tuple[str, ...]
    acts: Mapping[str, str]
    seed: int = 7

    @property
    def names(self) -> dict[str, str]:
        """Each NPC's name by id."""
        return {n["id"]: str(n.get("nom") or n["sheet"]["nom"]) for n in self.npcs}

    def scenario(self) -> dict[str, Any]:
        """The whole fight as a scenario (the player's character inline, first)."""
        pc = {"id": self.pc_id, **_side_key(self.ruleset, self.pc_side)}
        if self.ruleset == "vtm":
            pc.update({"position": [0, 0], "sheet": dict(self.pc_sheet)})
        else:
            pc.update(copy.deepcopy(dict(self.pc_sheet)))
            if self.ruleset == "western":
                pc["position"] = [0, 0]
        return {"ruleset": self.ruleset, "combatants": [pc, *copy.deepcopy(list(self.npcs))]}


def _side_key(ruleset: str, side: str) -> dict[str, str]:
    return {"side": side} if ruleset == "vtm" else {"camp": side}


def _hide(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "hidden": True}


FIGHTS: dict[str, HiddenFight] = {
    "vtm": HiddenFight(
        "vtm",
        "jack",
        VTM_JACK,
        "cow-boys",
        (
            _vtm_npc("sam", "Sam le barman", "saloon", (0, 1)),
            _hide(_vtm_npc("zorba", "Zorba Kell", "saloon", (1, 0))),
            _hide(_vtm_npc("quincy", "Quincy Vold", "saloon", (5, 5))),
        ),
        setup=(
            "initiative",
            "jack: déclare coup de poing sur sam",
            "sam: déclare coup de poing sur jack",
            "zorba: déclare coup de poing sur jack",
            "quincy: retarde",
        ),
        acts={
            "jack": "jack: agit",
            "sam": "sam: agit",
            "zorba": "zorba: agit",
        },
    ),
    "hunter": HiddenFight(
        "hunter",
        "ana",
        HUNTER_ANA,
        "cellule",
        (
            _hunter_npc("bete", "la Bête", "bete", (0, 1)),
            _hide(_hunter_npc("zorba", "Zorba Kell", "bete", (1, 0))),
            _hide(_hunter_npc("quincy", "Quincy Vold", "bete", (5, 5))),
        ),
        setup=("initiative",),
        acts={
            "ana": "ana: tire sur bete",
            "bete": "bete: attaque ana",
            "zorba": "zorba: attaque ana",
            "quincy": "quincy: passe",
        },
    ),
    "western": HiddenFight(
        "western",
        "bill",
        WESTERN_BILL,
        "bill",
        (
            _western_npc("garde", "le garde", "fort", (15, 0)),
            _hide(_western_npc("zorba", "Zorba Kell", "fort", (10, 0))),
            _hide(_western_npc("quincy", "Quincy Vold", "fort", (20, 5))),
        ),
        setup=("round",),
        acts={
            "bill": "bill: tire sur garde",
            "garde": "garde: tire sur bill",
            "zorba": "zorba: tire sur bill",
            "quincy": "quincy: passe",
        },
    ),
}


Execute = Callable[[Command, SeededDice], Any]


def play_setup(enc: Callable[[], Encounter], execute: Execute, fight: HiddenFight) -> None:
    """The fight's setup lines on the encounter ``enc()`` gives, each carried out by
    ``execute`` (the engine's, or the store's), a line refused as "not yet" played later."""
    dice = SeededDice(fight.seed)
    waiting = list(fight.setup)
    while waiting:
        for line in waiting:
            e = enc()
            try:
                execute(parse_line(e, line, "fr"), dice)
            except ConteurError as error:
                if error.key in e.ruleset.deferrable:
                    continue
                raise
            waiting.remove(line)
            break
        else:
            raise AssertionError(f"no setup line is playable: {waiting}")


def next_act(enc: Encounter, fight: HiddenFight) -> str:
    """The act line of the first combatant due now (ConteurError when none has one)."""
    due = enc.ruleset.turn_view(enc.state).due
    for fid in due:
        if fid in fight.acts:
            return fight.acts[fid]
    raise AssertionError(f"no act line for {due}")


def start_in_store(store: Any, fight: HiddenFight, lang: str = "fr") -> tuple[int, str, int]:
    """The fight as a campaign of the store (the player's character its one character, the
    NPCs given inline), its setup played: the encounter's id, the player's token, the
    campaign's id."""
    from conteur.store import Participant

    campaign = store.create_campaign(f"Embuscade {fight.ruleset}", fight.ruleset)
    if lang != "fr":
        store.update_campaign(campaign.id, settings={"lang": lang})
    char = store.add_character(campaign.id, dict(fight.pc_sheet))
    position = (0.0, 0.0) if fight.ruleset != "hunter" else None
    info = store.start_encounter(
        campaign.id,
        "Embuscade",
        [Participant(char.id, side=fight.pc_side, position=position, combatant_id=fight.pc_id)],
        npcs=[copy.deepcopy(n) for n in fight.npcs],
    )
    play_setup(lambda: store.encounter(info.id), lambda c, d: store.execute(info.id, c, d), fight)
    token = next(c.token for c in store.list_characters(campaign.id) if c.id == char.id)
    return info.id, token, campaign.id
