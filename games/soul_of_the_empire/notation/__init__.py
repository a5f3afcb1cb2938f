"""Soul of the Empire notation: what players type, what the log shows.

Dice are named by their value (dice of one value are interchangeable); ``3+1``
is a die from the Dice Sequence plus one die from outside it (actions marked *).
Routes are territories joined by ``-``; several routes are separated by commas.
Case, accents and unambiguous prefixes of names and command words (``rec`` for
``recruit``, ``att`` for ``attack``; ``pla`` is ``place`` or ``play``, whichever is legal
now) are accepted::

    marker <territory>                      setup: place an Objective Point Marker
    place <territory>                       setup: one of Rome's final units
    reroll 1 1 3 | ready 4 5 6              roll and ready
    ready 6 | ready 6 6                      one 6 | both 6s: the dice named, as many as named
    done | end | pass                       finish the Start/End Phase | the Main Phase | pass
    move 5: 2 Rome-Italia-Gallia, 1 Syria-Cilicia
    move gray [yellow] 4: 3 Sicilia-Rome    Gray units, with a yellow or a Jewish die
    move gray yellow 4 Merchant Revolt: ... a yellow die moves only its own revolt's units
    recruit 4: 3 Jerusalem, 1 Samaria
    attack [gray] [yellow] 2: Coalition in Dacia
    claim 3: Pax Romana | retrieve 1: Pax Romana | retrieve 1: marker Dacia
    buy 5 | buy 3+1
    marker 2: Dacia                          Coalition: claim an Objective Point Marker
    block 4+2: Jewish on The Temple | unblock 1: The Temple
    rage 4 | rage 3+1
    discard objective 6: The Forum          2-player game
    play <card> [in <territory>] [on <faction>] [: <routes | territories | pieces | values>]
    play <combat power card>                 before the Combat Cards: a Power Card face down
    conscript 1 Jewish, 1 Coalition          ... Conscription's units (both: play X and conscript 2)
    commit <combat card>                     then the Combat Card, in secret
    elder | elder mine | elder theirs | elder none    Elder: play it face up; after the reveal
    reveal | keep                            Pharaoh's Fate after the reveal
    grace                                    Grace: reverse a combat result
    crucify <faction>                        Crucify: return a captured unit of that faction
    rampage <n> to <territory> | salvage | exploit [<card>] | no plunder
    salvage <card>                           Salvage: select from the discard pile or the two drawn
    shift <faction> <territory>-<territory>  Help the Wounded, Gospel
    redirect to <territory>                  Promised Land: all the units to one territory
    redirect 2 Samaria, 1 Galilaea           ... or per unit (2 Jerusalem-Samaria: from Jerusalem)
    raise 4 | raise 4 outside                Give to Caesar, Collect Tribute (the player)
    lower 3 | lower 3 outside                Collect Tribute (the other factions)
    give 5 | give 5 outside                  Giving (the faction named)
    convert 2 supply, 1 captured, 1 Galatia  conversion: the sources of the Christian units
    spread 2 Syria, 1 Cilicia                conversion: the units over the 6-unit limit move out
    score <objective card>                   score a completed objective (pass leaves it claimed)
    discard <power card>

Pieces are written ``<faction> in <territory>``. ``parse(format_action(a)) == a``
for every legal action.
"""

from __future__ import annotations

from .format import format_action
from .read import complete, parse
from .words import FACTION_WORDS, SAME_AS, VERBS

__all__ = ["FACTION_WORDS", "SAME_AS", "VERBS", "complete", "format_action", "parse"]
