"""The odds of one attack, with the options that change them: the GM's (anyone's attack)
here, the player's (their own character's) in ``routes.player``, both over ``odds_answer``."""

from __future__ import annotations

import copy
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from conteur.engine import Encounter
from conteur.engine.commands import Param
from conteur.engine.visibility import GM, Viewer
from conteur.i18n import ConteurError

from .. import view
from ..context import AppContext, Ctx, call, int_id

router = APIRouter()

OPTION = "opt_"
"""The prefix of the odds' options in a query (``opt_<name>=<value>``)."""


@router.get("/e/{eid}/odds", response_class=HTMLResponse)
async def encounter_odds(
    ctx: Ctx,
    request: Request,
    eid: str,
    attacker: str = "",
    target: str = "",
    maneuver: str = "",
) -> Response:
    await ctx.gm_session(request)
    info = await ctx.encounter_or_404(int_id(eid))
    return await odds_answer(
        ctx, request, info.id, attacker, target, maneuver, f"/e/{info.id}/odds", GM
    )


async def odds_answer(
    ctx: AppContext,
    request: Request,
    eid: int,
    attacker: str,
    target: str,
    maneuver: str,
    url: str,
    viewer: Viewer,
    labels: bool = False,
) -> Response:
    """The odds of one attack, with the options that change them (``opt_<name>``);
    ``labels``: the NPCs named by generic labels (``Privacy.npc_names``).

    ``viewer`` asks: the game master prices anyone's attack, a player only their own
    character's (never an NPC's, nor another player's)."""
    lang = ctx.lang_of(request)
    values = {k: v for k, v in request.query_params.items() if k.startswith(OPTION)}
    toggled = OPTION in values  # the options' own form was sent (else: as things stand)

    def work() -> tuple[Any, list[view.Field], dict[str, str]]:
        def read(
            enc: Encounter,
        ) -> tuple[Encounter, Any, list[Param], dict[str, Any], dict[str, str]]:
            names = enc.ruleset.names(enc.state)
            if attacker not in names or target not in names or attacker == target:
                raise ConteurError("web.odds_pick")
            if not viewer.gm and (attacker != viewer.character or target in enc.hidden):
                raise ConteurError("web.odds_pick")
            if not enc.ruleset.prices_attacks:
                raise ConteurError("web.no_odds")
            if maneuver and maneuver not in view.attack_kinds(enc, attacker):
                raise ConteurError("web.bad_choice", field="maneuver", value=maneuver)
            toggles = view.odds_toggles(enc, attacker, target, maneuver or None)
            chosen = view.params_from_form(toggles, values, OPTION) if toggled else {}
            # A copy taken under the store's lock: the live state changes in place with
            # each command, and the odds are priced after the lock is released.
            if labels:
                names = view.labelled(names, viewer.players, lang)
            return enc, copy.deepcopy(enc.state), toggles, chosen, names

        enc, state, toggles, chosen, names = ctx.store.read_encounter(eid, read)
        try:
            answer = enc.ruleset.attack_odds(
                state,
                attacker,
                target,
                maneuver or None,
                params=chosen or None,
            )
        except ConteurError:
            raise
        except Exception:  # the maneuver is not an attack for this ruleset
            raise ConteurError("web.no_odds") from None
        fields = [view.toggle_field(p, chosen, lang, names, enc.ruleset.name) for p in toggles]
        return answer, fields, names

    answer, fields, names = await call(work)
    return ctx.render(
        request,
        "_odds.html",
        odds=view.odds_view(answer, lang),
        attacker=names[attacker],
        target=names[target],
        toggles=fields,
        odds_url=url,
        picked={"attacker": attacker, "target": target, "maneuver": maneuver},
    )
