"""Wars (rule text: shared/seeds/004, CONQUEST PHASE and DEFEAT): secret commitments
(fight, support, block, pass), their reveal, K cards negating revealed Leader cards, the
War Total and its losses, Territory Tokens taken, wipe-outs (RULINGS R5, R7, R13-R15)."""

from __future__ import annotations

from typing import Any

from games.core import Seat
from games.core.english import count as counted
from games.core.errors import list_words
from games.core.window import seats_after

from ..model import (
    Block,
    Contribution,
    Fight,
    Note,
    Pass,
    PlayCard,
    State,
    Support,
    WarCommitted,
    WarResolved,
    WarResult,
)
from ..queries import BERSERK_FORCE, VICTORY_TERRITORIES
from .common import check_last_standing, finish, not_in_hand, played, remove_cards
from .context import _Ctx
from .turn import maybe_end_conquest, next_turn

# ------------------------------------------------------------------ commitments


def _bad_cards(game: Any, a: Fight | Support, allowed: set[str]) -> list[str] | None:
    """The names of ``a.cards`` outside ``allowed`` (["a card twice"] for a repeat); None when all fit."""
    bad = [c for c in a.cards if c not in allowed]
    if bad or len(set(a.cards)) != len(a.cards):
        return [game.card(c).display if game.card_ok(c) else c for c in bad] or ["a card twice"]
    return None


def fight_refusal(game: Any, s: State, seat: Seat, a: Fight) -> str | None:
    """A combatant's commitment: its war cards (RULINGS R5); a sacrifice only for Berserkers."""
    if seat not in (s.war.attacker, s.war.defender):
        return "Only the attacker and the defender fight; you may support a side or pass."
    allowed = set(game.war_cards(s, seat, seat))
    bad = _bad_cards(game, a, allowed)
    if bad:
        return f"You cannot fight with {list_words(bad)}; cards you may commit: {list_words(game.names(sorted(allowed)))}."
    if a.sacrifice and not ("berserkers" in game.abilities(s, seat) and s.players[seat].armies > 0):
        return "Only the Berserkers (Visigoths, Goths) may sacrifice an Army Token, and only with one to spare."
    return None


def support_refusal(game: Any, s: State, seat: Seat, a: Support) -> str | None:
    """Another seat's support: a side of the war, Army Tokens it has, cards for that side (R5)."""
    war = s.war
    if seat in (war.attacker, war.defender):
        return "You are fighting this war: commit with fight (or fight with <cards>)."
    if a.side not in (war.attacker, war.defender):
        return f"Support either {game.nation_name(s, war.attacker)} or {game.nation_name(s, war.defender)}."
    armies = s.players[seat].armies
    if not 0 <= a.armies <= armies:
        return f"You can send 0 to {counted(armies, 'Army Token')}."
    allowed = set(game.war_cards(s, seat, a.side))
    bad = _bad_cards(game, a, allowed)
    if bad:
        return f"You cannot send {list_words(bad)} to that side; you may send: {list_words(game.names(sorted(allowed)))}."
    if a.armies == 0 and not a.cards:
        return "Send at least one Army Token or card, or pass."
    return None


def commit_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """CONQUEST PHASE, the secret commitments: fight, support, block or pass."""
    if isinstance(a, Fight):
        return fight_refusal(game, s, seat, a)
    if isinstance(a, Support):
        return support_refusal(game, s, seat, a)
    if isinstance(a, Block):
        allowed = game.blocks(s, seat)
        if a.card not in allowed:
            return (
                "To block this attack, the defender may play a P card and anyone but the attacker an I card; "
                f"you may block with: {list_words(game.names(allowed))}."
            )
        return None
    if isinstance(a, Pass):
        war = s.war
        if seat in (war.attacker, war.defender):
            # CONQUEST PHASE: "The player with the higher WT wins the War" - the Attacker and the
            # Defender are in the war; they cannot stay out of it, only fight with no cards
            role = "the Attacker" if seat == war.attacker else "the Defender"
            cards = game.war_cards(s, seat, seat)
            also = f", or fight with {list_words(game.names(cards))}" if cards else ""
            blocks = game.blocks(s, seat)
            block = f", or block with {list_words(game.names(blocks))}" if blocks else ""
            return (
                f"You are {role} in this war and cannot pass (CONQUEST PHASE): "
                f"type fight (no cards){also}{block}."
            )
        return None
    # any other action (a card played, an attack...): the same refusal as a text that names
    # no card of the hand ("'play' is not possible now: the question now is ...; legal now: ...")
    return game.not_handled(s, seat, a)


def contribution(war: Any, seat: Seat, a: Any) -> Contribution:
    """What ``seat``'s commitment ``a`` (Fight, Support, Block or Pass) records in ``war``."""
    if isinstance(a, Fight):
        return Contribution(seat=seat, side=seat, cards=a.cards, sacrifice=a.sacrifice)
    if isinstance(a, Support):
        return Contribution(seat=seat, side=a.side, cards=a.cards, armies=a.armies)
    if isinstance(a, Block):
        return Contribution(seat=seat, block=a.card)
    if seat in (war.attacker, war.defender):
        return Contribution(seat=seat, side=seat)
    return Contribution(seat=seat)


def apply_commit(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """``seat``'s secret commitment is recorded (its cards stay in hand until the
    reveal); once every seat has committed, all are revealed (:func:`reveal`)."""
    s = ctx.s
    war = s.war
    contrib = contribution(war, seat, a)
    war = war.model_copy(
        update={
            "contributions": war.contributions + (contrib,),
            "waiting": tuple(x for x in war.waiting if x != seat),
        }
    )
    ctx.update(war=war)
    ctx.emit(WarCommitted(seat=seat, who=game.nation_name(s, seat)))
    if not war.waiting:
        reveal(game, ctx)


def _reveal_line(game: Any, s: State, c: Contribution) -> str | None:
    """One seat's commitment as revealed; None for a supporter who passed."""
    who = game.nation_name(s, c.seat)
    if c.block:
        return f"{who} blocks with {game.card(c.block).display}"
    if c.armies or c.cards or c.sacrifice:
        bits = [counted(c.armies, "Army Token")] if c.armies else []
        bits += list(game.names(c.cards))
        if c.sacrifice:
            bits.append("sacrifices an Army Token (Force +3)")
        target = "" if c.side == c.seat else f" for {game.nation_name(s, c.side)}"
        return f"{who}{target}: {', '.join(bits)}"
    if c.side == c.seat:
        return f"{who}: no cards"
    return None


def reveal(game: Any, ctx: _Ctx) -> None:
    """The commitments are revealed together, their cards leave the hands; revealed
    Leader cards may then be negated (RULINGS R7), else the war is resolved."""
    s = ctx.s
    war = s.war
    lines = [line for c in war.contributions if (line := _reveal_line(game, s, c)) is not None]
    for c in war.contributions:
        cards = c.cards + ((c.block,) if c.block else ())
        if cards:
            remove_cards(ctx, c.seat, cards, to_discard=False)
    ctx.emit(Note(text="War commitments revealed — " + "; ".join(lines) + "."))
    if game.revealed_leaders(ctx.s):
        waiting = (war.attacker,) + seats_after(game.living(s), war.attacker)
        ctx.update(war=ctx.s.war.model_copy(update={"stage": "negate", "waiting": waiting}))
    else:
        resolve_war(game, ctx)


# ------------------------------------------------------------------ negating Leader cards


def _negated(game: Any, s: State, seat: Seat, a: PlayCard) -> str | None:
    """The revealed Leader card ``a`` negates: the one named, or the only one of another seat."""
    targets = [c for c, owner in game.revealed_leaders(s) if owner != seat]
    match = [c for c in targets if c == a.negate] or ([targets[0]] if a.negate is None and len(targets) == 1 else [])
    return match[0] if match else None


def negate_refusal(game: Any, s: State, seat: Seat, a: Any) -> str | None:
    """After the reveal: a K card negating a revealed Leader card of another seat, or pass (R7)."""
    if isinstance(a, Pass):
        return None
    if not isinstance(a, PlayCard):
        return "Negate a revealed Leader card with a K card, or pass."
    reason = not_in_hand(game, s, seat, a.card)
    if reason:
        return reason
    if not game.card(a.card).has("K"):
        return "Only K cards negate Leader cards; or pass."
    if _negated(game, s, seat, a) is None:
        targets = [c for c, owner in game.revealed_leaders(s) if owner != seat]
        return f"Say which Leader card to negate: {list_words(game.names(targets))}."
    return None


def apply_negate(game: Any, ctx: _Ctx, seat: Seat, a: Any) -> None:
    """A pass, or a K card negating a revealed Leader card; the war is resolved once all
    have passed or no Leader card is left standing."""
    s = ctx.s
    war = s.war
    if isinstance(a, Pass):
        waiting = tuple(x for x in war.waiting if x != seat)
        ctx.update(war=war.model_copy(update={"waiting": waiting}))
        if not waiting:
            resolve_war(game, ctx)
        return
    leader = _negated(game, s, seat, a)
    remove_cards(ctx, seat, [a.card])
    ctx.update(war=ctx.s.war.model_copy(update={"negated": ctx.s.war.negated + (leader,)}))
    ctx.emit(played(game, ctx.s, seat, game.card(a.card), f" {game.card(leader).display} is negated."))
    if not game.revealed_leaders(ctx.s):
        resolve_war(game, ctx)


# ------------------------------------------------------------------ resolution


def resolve_war(game: Any, ctx: _Ctx) -> None:
    """CONQUEST PHASE: a block stops the war; else it is fought (:func:`fight_war`)."""
    war = ctx.s.war
    blockers = [con for con in war.contributions if con.block and con.block not in war.negated]
    if blockers:
        resolve_blocked(game, ctx, blockers[0])
    else:
        fight_war(game, ctx)


def resolve_blocked(game: Any, ctx: _Ctx, b: Contribution) -> None:
    """A P card (the defender) or an I card (anyone but the attacker) not negated stops
    the attack; committed cards return to their owners' hands, blocks are discarded."""
    s = ctx.s
    war = s.war
    att, dfn = war.attacker, war.defender
    for con in war.contributions:
        if con.cards:
            ctx.set_player(con.seat, hand=ctx.player(con.seat).hand + tuple(con.cards))
    spent = [con.block for con in war.contributions if con.block]
    ctx.update(discard=ctx.s.discard + tuple(spent))
    card = game.card(b.block)
    if card.has("P"):
        ctx.update(protected=tuple(sorted(set(ctx.s.protected) | {b.seat})))
    else:
        ctx.update(attack_forbidden=True)
    text = (
        f"{game.possessive(s, b.seat)} {card.display} stops the attack: "
        + (
            "it may not be attacked this turn."
            if card.has("P")
            else f"{game.nation_name(s, att)} may not attack at all this turn."
        )
        + " Committed cards return to their owners' hands."
    )
    result = WarResult(attacker=att, defender=dfn, outcome="blocked", note=text)
    ctx.update(war=None, last_war=result)
    ctx.emit(WarResolved(result=result, text=text))
    after_war(game, ctx)


def war_totals(game: Any, ctx: _Ctx) -> tuple[dict[Seat, int], dict[Seat, int], dict[Seat, list[tuple[Seat, int]]], bool]:
    """CONQUEST PHASE, War Total = Army Tokens (2 each with Aggression attacking or
    Defenders defending) + a Berserkers' sacrifice (+3) + allied Army Tokens + Force
    bonuses + 1D10. Allied tokens leave their owners. Returns (totals, rolls, allies by
    side, whether a Y card forces a stalemate)."""
    s = ctx.s
    war = s.war
    att, dfn = war.attacker, war.defender
    allied: dict[Seat, list[tuple[Seat, int]]] = {att: [], dfn: []}
    sacrifice = {att: False, dfn: False}
    forces = {att: 0, dfn: 0}
    stalemate_card = False
    for con in war.contributions:
        if con.side is None:
            continue
        forces[con.side] += game.force(s, con)
        if any(game.card(c).has("Y") for c in con.cards):
            stalemate_card = True
        if con.seat == con.side:
            sacrifice[con.seat] = con.sacrifice
        elif con.armies:
            allied[con.side].append((con.seat, con.armies))
            ctx.set_player(con.seat, armies=ctx.player(con.seat).armies - con.armies)
    totals, rolls = {}, {}
    for side, bonus_ability in ((att, "aggression"), (dfn, "defenders")):
        if sacrifice[side]:
            ctx.set_player(side, armies=ctx.player(side).armies - 1)
        per_token = 2 if bonus_ability in game.abilities(s, side) else 1
        rolls[side] = ctx.rng.die(10)
        totals[side] = (
            ctx.player(side).armies * per_token
            + (BERSERK_FORCE if sacrifice[side] else 0)
            + sum(n for _, n in allied[side])
            + forces[side]
            + rolls[side]
        )
    return totals, rolls, allied, stalemate_card


def fight_war(game: Any, ctx: _Ctx) -> None:
    """CONQUEST PHASE: the higher War Total wins; equal or 1 apart (or a Y card) is a
    stalemate (both lose 1D6); otherwise the loser loses 1D6, the winner 1D6-3, and the
    winner takes a Territory Token. Committed cards are discarded."""
    s = ctx.s
    war = s.war
    att, dfn = war.attacker, war.defender
    used = [c for con in war.contributions for c in con.cards + ((con.block,) if con.block else ())]
    ctx.update(discard=ctx.s.discard + tuple(used))
    totals, rolls, allied, stalemate_card = war_totals(game, ctx)
    diff = totals[att] - totals[dfn]
    a_name, d_name = game.nation_name(s, att), game.nation_name(s, dfn)
    if stalemate_card or abs(diff) <= 1:
        outcome = "stalemate"
        a_loss, d_loss = ctx.rng.die(6), ctx.rng.die(6)
        why = "a Y card forces a stalemate" if stalemate_card else "the totals are within 1"
        head = f"Stalemate ({why})"
    else:
        outcome = "attacker" if diff > 0 else "defender"
        loser_roll, winner_roll = ctx.rng.die(6), ctx.rng.die(6)
        loss_l, loss_w = loser_roll, max(0, winner_roll - 3)
        a_loss, d_loss = (loss_w, loss_l) if outcome == "attacker" else (loss_l, loss_w)
        head = f"Victory for {a_name if outcome == 'attacker' else d_name}"
    a_lost = casualties(game, ctx, att, allied[att], a_loss)
    d_lost = casualties(game, ctx, dfn, allied[dfn], d_loss)
    taken = outcome in ("attacker", "defender")
    if taken:
        winner, loser = (att, dfn) if outcome == "attacker" else (dfn, att)
        ctx.set_player(winner, territories=ctx.player(winner).territories + 1, wins=ctx.player(winner).wins + 1)
        ctx.set_player(loser, territories=ctx.player(loser).territories - 1)
    text = (
        f"War: {a_name} {totals[att]} (rolled {rolls[att]}) vs {d_name} {totals[dfn]} (rolled {rolls[dfn]}). "
        f"{head}. Losses: {a_name} {counted(a_lost, 'Army Token')}, {d_name} {counted(d_lost, 'Army Token')}."
        + (" A Territory Token changes hands." if taken else "")
    )
    result = WarResult(
        attacker=att,
        defender=dfn,
        attacker_total=totals[att],
        defender_total=totals[dfn],
        attacker_roll=rolls[att],
        defender_roll=rolls[dfn],
        outcome=outcome,
        attacker_losses=a_lost,
        defender_losses=d_lost,
        territory_taken=taken,
        note=text,
    )
    ctx.update(war=None, last_war=result)
    ctx.emit(WarResolved(result=result, text=text))
    ctx.update(conquests_left=ctx.s.conquests_left - 1)
    if taken:
        war_won(game, ctx, winner, loser, att)
    else:
        after_war(game, ctx)


def war_won(game: Any, ctx: _Ctx, winner: Seat, loser: Seat, attacker: Seat) -> None:
    """VICTORY at 10 Territory Tokens; DEFEAT at none (an attacker wiped out ends its
    turn); otherwise the Conquest Phase goes on."""
    if ctx.player(winner).territories >= VICTORY_TERRITORIES:
        finish(ctx, winner, f"Victory for {game.the_nation(ctx.s, winner)}: {VICTORY_TERRITORIES} Territory Tokens!")
        return
    if ctx.player(loser).territories <= 0:
        wipe_out(game, ctx, loser)
        if ctx.s.phase == "over":
            return
        if loser == attacker:
            next_turn(game, ctx)
            return
    after_war(game, ctx)


def casualties(game: Any, ctx: _Ctx, side: Seat, allies: list[tuple[Seat, int]], loss: int) -> int:
    """Take ``loss`` Army Tokens from ``side``: its own first, allied armies last;
    surviving allied armies go home (CONQUEST PHASE; RULINGS R5). Returns the losses."""
    own = ctx.player(side).armies
    from_own = min(own, loss)
    ctx.set_player(side, armies=own - from_own)
    left = loss - from_own
    taken = from_own
    for ally, n in allies:
        lost = min(n, left)
        left -= lost
        taken += lost
        ctx.set_player(ally, armies=ctx.player(ally).armies + n - lost)
        if lost:
            ctx.emit(Note(text=f"{game.nation_name(ctx.s, ally)} lost {counted(lost, 'allied Army Token')}."))
    return taken


def wipe_out(game: Any, ctx: _Ctx, seat: Seat) -> None:
    """DEFEAT: a player with no Territory Tokens is wiped out (hand discarded,
    armies gone); it may re-enter as a nation not yet played (RULINGS R13)."""
    s = ctx.s
    p = s.players[seat]
    name = game.nation_name(s, seat)
    position = s.seating.index(seat)
    ctx.update(discard=s.discard + p.hand, seating=tuple(x for x in s.seating if x != seat))
    status = "out" if game.nation_pool(ctx.s, reentry=True) else "eliminated"
    ctx.set_player(seat, hand=(), armies=0, territories=0, wins=0, status=status, last_position=position)
    ctx.emit(
        Note(
            text=f"Wiped out: the {name}!"
            + (
                " They may re-enter as a new nation on their next turn."
                if status == "out"
                else " No nation is left for them: they are out."
            )
        )
    )
    check_last_standing(game, ctx)


def after_war(game: Any, ctx: _Ctx) -> None:
    """After a war the Conquest Phase goes on, or ends by itself (RULINGS R11)."""
    if ctx.s.phase == "over":
        return
    maybe_end_conquest(game, ctx)
