"""Roman War's views: what each seat and a spectator may see, and the hidden parts a
perturbation redraws (ARCHITECTURE.md, "Hidden information")."""

from __future__ import annotations

import random

from games.core import (
    Seat,
)
from games.core.secrets import redeal, shuffled

from . import text
from .model import (
    AmbushView,
    ClearingView,
    CostView,
    EncampmentView,
    FieldView,
    RomanView,
    StackView,
    State,
    View,
)


class ViewRules:
    """The View of a State, and its hidden parts."""

    def perturb_hidden(self, s: State, keep: frozenset[Seat] | None, rand: random.Random) -> State:
        """``s`` as the seats of ``keep`` cannot tell it apart (games.core.secrets): every
        draw pile shuffled (the Hannibal deck below its ``known`` top cards); for a Roman
        outside ``keep``, hand, deck and face-down Cost Zone cards redealt among
        themselves; Hannibal's duel hand redealt with the unknown Hannibal deck when
        Hannibal's seat is outside ``keep``."""
        romans = []
        for x, r in enumerate(s.romans):
            if keep is not None and x not in keep:
                down = [i for i, c in enumerate(r.cost_zone) if not c.face_up]
                hand, deck, faces = redeal([r.hand, r.deck, [r.cost_zone[i].card for i in down]], rand)
                zone = list(r.cost_zone)
                for i, c in zip(down, faces, strict=True):
                    zone[i] = zone[i].model_copy(update={"card": c})
                romans.append(r.model_copy(update={"hand": hand, "deck": deck, "cost_zone": tuple(zone)}))
            else:
                romans.append(r.model_copy(update={"deck": shuffled(r.deck, rand)}))
        top, rest = s.hannibal_deck[: s.known], s.hannibal_deck[s.known :]
        hand = s.hannibal_hand
        if s.hannibal_seat is not None and keep is not None and s.hannibal_seat not in keep:
            hand, rest = redeal([hand, rest], rand)
        else:
            rest = shuffled(rest, rand)
        return s.model_copy(
            update={"romans": tuple(romans), "hannibal_deck": top + rest, "hannibal_hand": hand}
        )

    def _roman_view(self, s: State, x: Seat, viewer: Seat | None) -> RomanView:
        """Roman ``x`` as ``viewer`` sees it: its hand and face-down Cost Zone cards to itself only."""
        r = s.romans[x]
        own = viewer == x
        return RomanView(
            seat=x,
            commander=self.who(s, x),
            deck_id=r.deck_id,
            power=r.power,
            maneuver=r.maneuver,
            hand_size=len(r.hand),
            deck_size=len(r.deck),
            discard_size=len(r.discard),
            discard_top=self.card_view(r.discard[-1]) if r.discard else None,
            cost_zone=tuple(
                CostView(
                    card=self.card_view(c.card) if (c.face_up or own) else None,
                    face_up=c.face_up,
                    tapped=c.tapped,
                )
                for c in r.cost_zone
            ),
            untapped_cost=self.untapped(s, x),
            field=tuple(
                FieldView(
                    uid=f.uid,
                    card=self.card_view(f.card),
                    tapped=f.tapped,
                    attached=tuple(self.card_view(c) for c in f.attached),
                )
                for f in r.field
            ),
            shaken=r.shaken,
            overflow=r.overflow,
            hand=tuple(self.card_view(c) for c in r.hand) if own else None,
        )

    def view(self, s: State, viewer: Seat | None) -> View:
        """What ``viewer`` may see (None = spectator): its own hand and face-down Cost Zone
        cards, Hannibal's hand for the Hannibal seat; other hands, face-down cards and the
        deck orders are never in it (only the revealed top of the Hannibal deck)."""
        romans = [self._roman_view(s, x, viewer) for x in range(len(s.romans))]
        prompts = self.to_act(s)
        return View(
            viewer=viewer,
            mode=s.mode,
            round=s.round,
            last_round=s.last_round,
            phase=s.phase,
            active=None if s.phase == "over" else s.active,
            turn_order=s.turn_order,
            romans=tuple(romans),
            hannibal_seat=s.hannibal_seat,
            hannibal_seats=self.hannibal_seats(s),
            hannibal_deck_size=len(s.hannibal_deck),
            hannibal_discard_size=len(s.hannibal_discard),
            hannibal_hand_size=len(s.hannibal_hand),
            hannibal_hand=tuple(self.card_view(c) for c in s.hannibal_hand)
            if viewer is not None and viewer in self.hannibal_seats(s)
            else None,
            defended_size=len(s.defended_pile),
            foresight=tuple(self.card_view(c) for c in s.hannibal_deck[: s.known]),
            ambushes=tuple(
                AmbushView(
                    uid=a.uid,
                    card=self.card_view(a.card),
                    target=a.target,
                    defense=self.ambush_cost(s, a.card),
                    defended=a.defended,
                )
                for a in s.ambushes
            ),
            encampments=tuple(
                EncampmentView(uid=e.uid, card=self.card_view(e.card), defense=self.hcard(e.card).defense)
                for e in s.encampments
            ),
            stack=tuple(
                StackView(uid=i.uid, kind=i.kind, seat=i.seat, name=self._item_name(s, i.uid), stage=i.stage)
                for i in s.stack
            ),
            level_abilities=s.level_abilities,
            abilities=s.abilities,
            charged=s.charged,
            shared_level=s.shared_level,
            clearing=ClearingView(
                opener=s.clearing.opener, round=s.clearing.round, extended=s.clearing.extended
            )
            if s.clearing
            else None,
            waiting=tuple(prompts),
            prompt="; ".join(p.text for p in prompts.values()),
            winner=s.winner,
            end_reason=s.end_reason,
        )

    def summary(self, v: View) -> str:
        """Plain-text board for the terminal and logs (see text.summary)."""
        return text.summary(v)

    def hand_text(self, v: View) -> str:
        """The viewer's hand as text."""
        return text.hand_text(v)
