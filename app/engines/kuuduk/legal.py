"""The legal actions of the player on turn (rules 3.12), as the action dicts a client would send.

Lays list one placement per target slot: the bare slot when nothing moves,
else the full new row moving the fewest laid cards. Any other legal
rearrangement with the same lay is accepted too; the list just does not
enumerate every permutation.
"""

from __future__ import annotations

from app.engines.base import JSON
from app.engines.kuuduk.deck import SWIPES, Black, black_kind, is_letter
from app.engines.kuuduk.layout import Placement, legal_placements
from app.engines.kuuduk.state import KuudukState, Phase, Step
from app.engines.kuuduk.turn import victims
from app.engines.view_parts import tuple_json


def placement_json(placement: Placement) -> int | list[str | None]:
    return placement if isinstance(placement, int) else list(placement)


def legal(state: KuudukState, seat: int | None) -> list[JSON]:
    if seat is None or state.phase is not Phase.TURN or seat != state.turn:
        return tuple_json(())  # one shared empty list: the same object in every view
    layout = state.layouts[seat]
    out: list[JSON] = []
    if state.step is Step.ACQUIRE:
        if state.can_draw:
            out.append({"type": "draw"})
        if not (state.restarted and state.can_draw):
            out.append({"type": "pass"})
        if state.discard and is_letter(top := state.discard[-1]):
            for _, placement in legal_placements(layout, top):
                out.append({"type": "take_discard", "placement": placement_json(placement)})
        return out
    for card in state.hands[seat]:
        out.append({"type": "discard", "card": card})
        kind = black_kind(card)
        if kind is None:
            for _, placement in legal_placements(layout, card):
                out.append({"type": "lay", "card": card, "placement": placement_json(placement)})
        elif kind is Black.SWITCH:
            out.append({"type": "switch", "card": card})
        elif kind in SWIPES:
            out.append({"type": "swipe", "card": card})
            for victim in victims(state, seat, kind):
                for index, taken in enumerate(state.layouts[victim].slots):
                    if taken is None:
                        continue
                    for _, placement in legal_placements(layout, taken):
                        out.append(
                            {
                                "type": "swipe",
                                "card": card,
                                "victim": victim,
                                "slot": index + 1,
                                "placement": placement_json(placement),
                            }
                        )
    return out
