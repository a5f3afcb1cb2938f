"""Soul of the Empire: the Coalition plays what it salvages (RULINGS.md R14).

Salvage: "The Coalition faction can then play the Power Card in accordance with the card
instructions." Each test below takes one of the cards the Coalition could take but not play
before (Auxiliaries, Give to Caesar, Gospel, Grace, Help the Wounded, Promised Land), plays it
as the Coalition, with "you" meaning the Coalition, and quotes the card's sentence it follows.
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError
from games.soul_of_the_empire.model import (
    Attack,
    Buy,
    Commit,
    Done,
    Move,
    Pass,
    Path,
    PlayPower,
    Raise,
    Redirect,
    Shift,
    State,
    UseGrace,
)
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    FixedRng,
    act,
    board,
    dice,
    fresh,
    g,
    pass_elder,
    seat,
    set_f,
    turn_of,
    units,
)


def coalition_start(hand: tuple[str, ...] = (), durable: tuple[str, ...] = (), s: State | None = None) -> State:
    """The Coalition's Start Phase, the salvaged cards in its hand or face up."""
    s = turn_of(s or fresh(), "coalition", "start")
    return set_f(s, "coalition", hand=hand, durable=durable).model_copy(
        update={"power_played": 0, "acted": False}
    )


def legal(s: State, faction: str) -> list:
    return g.legal_actions(s, seat(s, faction))


def roundtrip(s: State, faction: str) -> None:
    for a in legal(s, faction):
        assert g.parse_action(s, seat(s, faction), g.format_action(s, a)) == a


def test_coalition_plays_salvaged_auxiliaries() -> None:
    """Auxiliaries: "During the Start Phase, take 2 units from supply and place them anywhere in
    the Roman Empire. ... They may not be placed on an Objective Point Marker." Played by the
    Coalition, the units are its own, from its own supply (RULINGS.md R14)."""
    s = coalition_start(hand=("auxiliaries",))
    assert PlayPower(card="auxiliaries") in legal(s, "coalition")
    s = act(s, "coalition", PlayPower(card="auxiliaries"))
    assert s.factions["coalition"].durable == ("auxiliaries",) and s.factions["coalition"].hand == ()
    uses = [a for a in legal(s, "coalition") if isinstance(a, PlayPower)]
    assert uses and all(len(a.territories) == 2 for a in uses)
    assert all(g.data.in_empire(t) for a in uses for t in a.territories)
    roundtrip(s, "coalition")
    supply = s.factions["coalition"].supply
    t = act(s, "coalition", PlayPower(card="auxiliaries", territories=("gallia", "italia")))
    assert units(t, "gallia", "coalition") == 1 and units(t, "italia", "coalition") == 1
    assert t.factions["coalition"].supply == supply - 2
    assert units(t, "gallia", "rome") == 0  # nothing Roman: the Coalition's own units
    with pytest.raises(IllegalActionError, match="once"):
        act(t, "coalition", PlayPower(card="auxiliaries", territories=("gallia", "gallia")))
    outside = next(x for x in g.data.territories if not g.data.in_empire(x))
    with pytest.raises(IllegalActionError, match="Roman Empire"):
        act(s, "coalition", PlayPower(card="auxiliaries", territories=(outside, outside)))


def test_coalition_plays_salvaged_give_to_caesar() -> None:
    """Give to Caesar: "Whenever a faction purchases Power Cards, you may increase the value of 1
    Unspent Die by 1 pip." With the card face up before the Coalition, the die is the
    Coalition's, and the Coalition chooses it or passes (RULINGS.md R14, R15)."""
    s = coalition_start(hand=("give-to-caesar",))
    s = act(s, "coalition", PlayPower(card="give-to-caesar"))
    assert s.factions["coalition"].durable == ("give-to-caesar",)
    s = dice(s, "coalition", [2, 6])
    s = dice(turn_of(s, "jews"), "jews", [4])
    s = act(s, "jews", Buy(die=0))
    assert s.window is not None and s.window.kind == "caesar" and s.window.faction == "coalition"
    co = seat(s, "coalition")
    assert g.to_act(s)[co].kind == "respond" and "Coalition die" in g.to_act(s)[co].text
    assert legal(s, "coalition") == [Pass(), Raise(die=0)]  # not the 6
    roundtrip(s, "coalition")
    r = act(s, "coalition", g.parse_action(s, co, "raise 2"))
    assert [d.value for d in r.factions["coalition"].dice[:2]] == [3, 6] and r.window is None
    assert [d.value for d in r.factions["rome"].dice] == [d.value for d in s.factions["rome"].dice]
    p = act(s, "coalition", Pass())
    assert [d.value for d in p.factions["coalition"].dice[:2]] == [2, 6] and p.window is None


def test_coalition_plays_salvaged_gospel() -> None:
    """Gospel: "Choose a faction and place one of their units from supply on this card. Whenever
    that faction moves, you may move any 1 Christian unit 1 territory." The Coalition names a
    faction; when it moves, the Coalition moves a Christian unit or passes (RULINGS.md R14)."""
    s = board(fresh(), {"syria": {"christians": 2}, "italia": {"rome": 2}})
    s = coalition_start(hand=("gospel",), s=s)
    plays = [a for a in legal(s, "coalition") if isinstance(a, PlayPower) and a.card == "gospel"]
    assert {a.target for a in plays} == {f for f in s.factions if f != "coalition" and s.factions[f].supply > 0}
    supply = s.factions["rome"].supply
    s = act(s, "coalition", PlayPower(card="gospel", target="rome"))
    assert s.factions["coalition"].gospel == "rome" and s.factions["rome"].supply == supply - 1
    s = dice(turn_of(s, "rome"), "rome", [2])
    s = act(s, "rome", Move(die=0, paths=(Path(count=1, route=("italia", "gallia")),)))
    assert s.window is not None and s.window.kind == "gospel" and s.window.faction == "coalition"
    co = seat(s, "coalition")
    assert g.to_act(s)[co].kind == "respond"
    assert Shift(faction="christians", source="syria", destination="cilicia") in legal(s, "coalition")
    roundtrip(s, "coalition")
    t = act(s, "coalition", Shift(faction="christians", source="syria", destination="cilicia"))
    assert units(t, "syria", "christians") == 1 and units(t, "cilicia", "christians") == 1
    assert t.window is None
    with pytest.raises(IllegalActionError, match="Gospel"):
        act(s, "coalition", Shift(faction="rome", source="gallia", destination="italia"))


def test_coalition_plays_salvaged_grace_to_reverse_a_combat_result() -> None:
    """Grace: "Once per turn you may do 1 of the following: 1) move through Coalition units, 2)
    reverse a combat result, or 3) recruit in a territory with Coalition units. You may not do
    the same thing two turns in a row." For the Coalition, 1) and 3) allow nothing its own
    units forbid; 2) is asked when it loses a combat (RULINGS.md R14, R9)."""
    s = coalition_start(hand=("grace",))
    s = act(s, "coalition", PlayPower(card="grace"))
    assert s.factions["coalition"].durable == ("grace",)
    s = board(s, {"gallia": {"rome": 6, "coalition": 1}})
    s = dice(turn_of(s, "rome"), "rome", [1])
    s = pass_elder(act(s, "rome", Attack(die=0, territory="gallia", target="coalition")))
    s = act(act(s, "rome", Commit(card="legio")), "coalition", Commit(card="berserker-charge"))
    assert s.combat is not None and s.combat.question == "grace", s.combat
    co = seat(s, "coalition")
    assert g.to_act(s)[co].kind == "respond" and legal(s, "coalition") == [UseGrace(), Pass()]
    used = act(s, "coalition", UseGrace())
    assert used.last_combat.winner == "coalition" and used.factions["coalition"].grace_now == 2
    assert "Grace: the Coalition reverses the combat result" in used.last_combat.text
    declined = act(s, "coalition", Pass())
    assert declined.last_combat.winner == "rome"


def test_coalition_plays_salvaged_help_the_wounded() -> None:
    """Help the Wounded: "During your Start Phase, you may move 1 of each other faction's units 1
    space." In the Coalition's Start Phase, 1 unit of each other faction, once each, or done
    (RULINGS.md R14)."""
    s = board(fresh(), {"syria": {"christians": 2}, "italia": {"rome": 2}, "jerusalem": {"jews": 1}})
    s = coalition_start(hand=("help-the-wounded",), s=s)
    s = act(s, "coalition", PlayPower(card="help-the-wounded"))
    shifts = [a for a in legal(s, "coalition") if isinstance(a, Shift)]
    assert {a.faction for a in shifts} == {"christians", "rome", "jews"}
    assert Done() in legal(s, "coalition")
    roundtrip(s, "coalition")
    t = act(s, "coalition", Shift(faction="rome", source="italia", destination="gallia"))
    assert units(t, "italia", "rome") == 1 and units(t, "gallia", "rome") == 1
    assert {a.faction for a in legal(t, "coalition") if isinstance(a, Shift)} == {"christians", "jews"}
    with pytest.raises(IllegalActionError, match="once each"):
        act(t, "coalition", Shift(faction="rome", source="italia", destination="gallia"))


def rome_leaves_jerusalem(coalition_hand: tuple[str, ...], jews_hand: tuple[str, ...]) -> State:
    s = board(turn_of(fresh(), "rome"), {"jerusalem": {"rome": 3}})
    s = set_f(s, "coalition", hand=coalition_hand)
    s = set_f(s, "jews", hand=jews_hand)
    s = dice(s, "rome", [6])
    return act(s, "rome", Move(die=0, paths=(Path(count=3, route=("jerusalem", "samaria", "aegyptus")),)))


def test_coalition_plays_salvaged_promised_land() -> None:
    """Promised Land: "When a faction initiates movement from inside the blue region, you choose
    the unit(s) and territory(ies) to which that faction must move (it must be a legal move)."
    The Coalition holding a salvaged copy redirects another faction's move (RULINGS.md R14,
    R22); the card goes back to the Jewish discard pile."""
    s = rome_leaves_jerusalem(("promised-land",), ())
    assert s.window is not None and s.window.kind == "promised_land" and s.window.faction == "coalition"
    co = seat(s, "coalition")
    assert g.to_act(s)[co].kind == "respond"
    assert any(isinstance(a, Redirect) for a in legal(s, "coalition"))
    roundtrip(s, "coalition")
    step = g.apply(s, co, g.parse_action(s, co, "redirect to Arabia"), FixedRng())
    t = step.state
    assert units(t, "arabia", "rome") == 3 and units(t, "aegyptus", "rome") == 0
    assert t.factions["coalition"].hand == () and "promised-land" in t.factions["jews"].discard
    assert "Promised Land! The Coalition sends the Rome units to Arabia" in " ".join(e.describe() for e in step.events)


def test_promised_land_asks_the_coalition_after_the_jews_pass() -> None:
    """Promised Land has two copies; when the Jews pass, the Coalition, which may hold the other
    copy, is asked next (RULINGS.md R22, R25)."""
    s = rome_leaves_jerusalem(("promised-land",), ("promised-land",))
    assert s.window is not None and s.window.faction == "jews"
    t = act(s, "jews", Pass())
    assert t.window is not None and t.window.faction == "coalition"
    u = act(t, "coalition", Pass())
    assert u.window is None and units(u, "aegyptus", "rome") == 3


@pytest.mark.parametrize(
    ("card", "lacks"),
    [("giving", "Power Card deck"), ("conscription", "Captured Unit Area"), ("enrapture", "Objective Cards")],
)
def test_cards_naming_what_the_coalition_has_not_got_say_so(card: str, lacks: str) -> None:
    """R14: Giving ("You immediately draw the top 2 Power Cards"), Conscription ("your captured
    unit area") and Enrapture ("Whenever you claim an Objective Card") need what the Coalition
    has not got; playing one is refused with that reason and changes nothing."""
    phase = g.data.card(card).phases[0]
    s = coalition_start(hand=(card,)).model_copy(update={"phase": phase if phase != "combat" else "main"})
    assert not any(isinstance(a, PlayPower) and a.card == card for a in legal(s, "coalition"))
    with pytest.raises(IllegalActionError, match=lacks):
        act(s, "coalition", PlayPower(card=card, target="rome"))
