"""Soul of the Empire: Promised Land unit by unit (RULINGS.md R22), the hand with its Combat
Cards (RULINGS.md R8), and prefixes of the command words in the notation.

Promised Land's card text: "When a faction initiates movement from inside the blue region, you
choose the unit(s) and territory(ies) to which that faction must move (it must be a legal move).
You may move the unit(s) to territory(ies) adjacent to the blue region."
"""

from __future__ import annotations

import pytest

from games.core import AmbiguousActionError, IllegalActionError, InvalidNotationError
from games.soul_of_the_empire.agent import HeuristicAgent
from games.soul_of_the_empire.model import (
    Attack,
    Marker,
    Move,
    Pass,
    Path,
    Plunder,
    Recruit,
    Redirect,
    State,
)
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    FixedRng,
    act,
    board,
    dice,
    fresh,
    g,
    seat,
    set_f,
    turn_of,
    units,
)


def moved(
    cells: dict[str, dict[str, int]], mover: str, paths: list[tuple[int, tuple[str, ...]]], **kw
) -> State:
    """``mover`` moves ``paths`` on its turn (one die paying for all of them), with Promised
    Land in the Jewish hand."""
    s = board(turn_of(kw.get("base") or fresh(), mover), cells)
    s = set_f(s, "jews", hand=("promised-land",))
    s = dice(s, mover, [6])
    return act(s, mover, Move(die=0, paths=tuple(Path(count=k, route=r) for k, r in paths)))


def redirect(s: State, text: str) -> State:
    """The Jewish seat types ``text``; the parsed action is applied."""
    js = seat(s, "jews")
    return act(s, "jews", g.parse_action(s, js, text))


def refused(s: State, text: str) -> str:
    with pytest.raises(IllegalActionError) as e:
        redirect(s, text)
    return str(e.value)


def three_to_aegyptus() -> State:
    """Rome moves 3 units Jerusalem-Samaria-Aegyptus (2 territories each)."""
    return moved({"jerusalem": {"rome": 3}}, "rome", [(3, ("jerusalem", "samaria", "aegyptus"))])


# --------------------------------------------------------------------------- R22: destinations


def test_r22_split_destinations() -> None:
    """R22: "you choose the unit(s) and territory(ies) to which that faction must move": the
    Jews send 2 Roman units to Arabia and 1 to Galilaea (each adjacent to Jerusalem, where the
    route started) and the card is discarded."""
    s = three_to_aegyptus()
    assert s.window is not None and s.window.kind == "promised_land"
    t = redirect(s, "redirect 2 Arabia, 1 Galilaea")
    assert units(t, "arabia", "rome") == 2
    assert units(t, "galilaea", "rome") == 1
    assert units(t, "aegyptus", "rome") == 0 and units(t, "samaria", "rome") == 0
    assert t.window is None
    assert "promised-land" not in t.factions["jews"].hand and "promised-land" in t.factions["jews"].discard
    js = seat(s, "jews")
    step = g.apply(s, js, g.parse_action(s, js, "redirect 1 Galilaea"), FixedRng())
    assert [e.text for e in step.events if "Promised Land" in getattr(e, "text", "")] == [
        "Promised Land! The Jews send the Rome units 1 to Galilaea instead (the others keep their move)."
    ]


def test_r22_split_reaches_as_far_as_the_route() -> None:
    """R22: a unit goes at most as many territories from its start as its own route took:
    after a 2-territory move, Syria (Jerusalem-Galilaea-Syria, adjacent to the blue region) is
    legal; after a 1-territory move it is out of reach."""
    s = three_to_aegyptus()
    t = redirect(s, "redirect 1 Syria, 2 Idumaea")
    assert units(t, "syria", "rome") == 1 and units(t, "idumaea", "rome") == 2
    short = moved({"jerusalem": {"rome": 2}}, "rome", [(2, ("jerusalem", "samaria"))])
    msg = refused(short, "redirect 1 Syria")
    assert "Syria is out of reach" in msg and "moved 1 territory" in msg


def test_r22_subset_keeps_the_others_move() -> None:
    """R22: "you choose the unit(s)": units not named keep their own move."""
    s = three_to_aegyptus()
    t = redirect(s, "redirect 1 Arabia")
    assert units(t, "arabia", "rome") == 1 and units(t, "aegyptus", "rome") == 2


def test_r22_all_to_one_territory() -> None:
    """R22: the simple form sends every unit that left the blue region to one territory."""
    s = three_to_aegyptus()
    a = g.parse_action(s, seat(s, "jews"), "redirect to Idumaea")
    assert a == Redirect(card="promised-land", territory="idumaea")
    assert a in g.legal_actions(s, seat(s, "jews"))
    t = act(s, "jews", a)
    assert units(t, "idumaea", "rome") == 3 and units(t, "aegyptus", "rome") == 0
    assert redirect(s, "redirect Arabia").board["arabia"]["rome"] == 3  # "to" may be left out


def test_r22_illegal_destinations_explained() -> None:
    """R22: "You may move the unit(s) to territory(ies) adjacent to the blue region" and "that
    faction must move": each refusal says what was wrong and what is legal, and changes nothing."""
    s = three_to_aegyptus()
    msg = refused(s, "redirect 1 Cilicia")
    assert "Cilicia is neither in nor adjacent to the blue region" in msg
    assert "Arabia" in msg and "Syria" in msg  # the legal destinations are listed
    assert "cannot stay in Jerusalem" in refused(s, "redirect 1 Jerusalem")
    assert "moved 3 units out of Jerusalem, not 4" in refused(s, "redirect 4 Arabia")
    assert "leaves every unit where it moved" in refused(s, "redirect 3 Aegyptus")
    assert "moved no units out of Galilaea" in refused(s, "redirect 1 Galilaea-Syria")
    # the window is still open and the board unchanged: the Jews may still pass
    assert s.window is not None and units(s, "aegyptus", "rome") == 3
    assert act(s, "jews", Pass()).window is None


def test_r22_mixed_route_lengths() -> None:
    """R22: units from one territory that moved different distances each go at most as far as
    they moved; when the names cannot be matched to units the refusal says how far each moved."""
    s = moved(
        {"jerusalem": {"rome": 2}},
        "rome",
        [(1, ("jerusalem", "samaria", "aegyptus")), (1, ("jerusalem", "idumaea"))],
    )
    t = redirect(s, "redirect 1 Syria")  # only the unit that moved 2 can reach Syria
    assert units(t, "syria", "rome") == 1 and units(t, "idumaea", "rome") == 1
    assert units(t, "aegyptus", "rome") == 0
    msg = refused(s, "redirect 2 Syria")
    assert "a unit goes at most as far as it moved" in msg


def test_r22_coalition_pieces_close_routes() -> None:
    """R22 and Move Units, Limitation: "Other factions may not move through a territory with a
    Coalition piece": Syria, reached through Galilaea or Arabia, is out of reach while Coalition
    pieces are in both; Galilaea itself may still be entered."""
    s = moved(
        {"jerusalem": {"rome": 2}, "galilaea": {"coalition": 1}, "arabia": {"coalition": 1}},
        "rome",
        [(2, ("jerusalem", "samaria", "aegyptus"))],
    )
    assert "Syria is out of reach" in refused(s, "redirect 1 Syria")
    assert units(redirect(s, "redirect 2 Galilaea"), "galilaea", "rome") == 2


def test_r22_six_unit_limit() -> None:
    """R22 and Important Terms: "Can only hold a maximum of 6 units for each faction": checked
    once every unit has landed."""
    s = moved(
        {"jerusalem": {"rome": 3}, "arabia": {"rome": 5}},
        "rome",
        [(3, ("jerusalem", "samaria", "aegyptus"))],
    )
    msg = refused(s, "redirect 2 Arabia")
    assert msg == "At most 6 Rome units may be in Arabia; it would hold 7."
    assert Redirect(card="promised-land", territory="arabia") not in g.legal_actions(s, seat(s, "jews"))
    t = redirect(s, "redirect 1 Arabia, 2 Idumaea")
    assert units(t, "arabia", "rome") == 6 and units(t, "idumaea", "rome") == 2


def test_r22_only_movement_from_the_blue_region() -> None:
    """R22: "When a faction initiates movement from inside the blue region": a move into the
    blue region opens no window; with routes from inside and outside, only the units that left
    the blue region may be redirected."""
    s = moved({"syria": {"rome": 2}}, "rome", [(2, ("syria", "galilaea"))])
    assert s.window is None
    s = moved(
        {"syria": {"rome": 1}, "jerusalem": {"rome": 1}},
        "rome",
        [(1, ("syria", "galilaea")), (1, ("jerusalem", "samaria"))],
    )
    assert s.window is not None and [p.route[0] for p in s.window.moved] == ["jerusalem"]
    assert "moved no units out of Syria" in refused(s, "redirect 1 Syria-Cilicia")
    t = redirect(s, "redirect to Idumaea")
    assert units(t, "idumaea", "rome") == 1 and units(t, "galilaea", "rome") == 1


def test_r22_several_start_territories() -> None:
    """R22: when units left several blue territories, each group is named by its start
    (redirect 2 Jerusalem-Arabia, 1 Galilaea-Samaria); without the start the notation asks for it."""
    s = moved(
        {"jerusalem": {"rome": 2}, "galilaea": {"rome": 1}},
        "rome",
        [(2, ("jerusalem", "samaria")), (1, ("galilaea", "syria"))],
    )
    with pytest.raises(InvalidNotationError, match="name where each group came from"):
        g.parse_action(s, seat(s, "jews"), "redirect 2 Arabia")
    t = redirect(s, "redirect 2 Jerusalem-Arabia, 1 Galilaea-Samaria")
    assert units(t, "arabia", "rome") == 2 and units(t, "samaria", "rome") == 1
    assert units(t, "syria", "rome") == 0


def test_r22_only_on_another_factions_turn() -> None:
    """R22 and "Promised Land (Another's Turn)": the Jews' own moves, Gray moves and moves of a
    faction the Jewish player also controls (2 players: Rome) open no window; the Coalition's do."""
    own = moved({"jerusalem": {"jews": 2}}, "jews", [(2, ("jerusalem", "samaria"))])
    assert own.window is None
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"gray": 2}})
    s = dice(set_f(s, "jews", hand=("promised-land",)), "jews", [2])
    s = act(s, "jews", Move(die=0, paths=(Path(count=2, route=("jerusalem", "samaria")),), gray=True))
    assert s.window is None and units(s, "samaria", "gray") == 2
    two = fresh(2)
    assert g.same_player(two, "rome", "jews")
    rome = moved({"jerusalem": {"rome": 2}}, "rome", [(2, ("jerusalem", "samaria"))], base=two)
    assert rome.window is None
    co = moved({"jerusalem": {"coalition": 2}}, "coalition", [(2, ("jerusalem", "samaria"))], base=two)
    assert co.window is not None and co.window.kind == "promised_land"


def test_r22_gospel_window_opens_after() -> None:
    """R22 and Gospel ("Whenever that faction moves, you may move any 1 Christian unit 1
    territory"): after Promised Land (played or passed) the Gospel window still opens."""
    base = set_f(fresh(), "christians", durable=("gospel",), gospel="rome")
    cells = {"jerusalem": {"rome": 2}, "cilicia": {"christians": 1}}
    s = moved(cells, "rome", [(2, ("jerusalem", "samaria"))], base=base)
    assert s.window is not None and s.window.kind == "promised_land"
    t = redirect(s, "redirect to Arabia")
    assert t.window is not None and t.window.kind == "gospel" and t.window.mover == "rome"
    assert units(t, "arabia", "rome") == 2
    u = act(s, "jews", Pass())
    assert u.window is not None and u.window.kind == "gospel"


def test_r22_offered_actions_round_trip() -> None:
    """R22: every offered redirect (one territory, splits, several starts) reads back from its
    notation and applies."""
    cases = [
        three_to_aegyptus(),
        moved(
            {"jerusalem": {"rome": 2}, "galilaea": {"rome": 1}},
            "rome",
            [(2, ("jerusalem", "samaria")), (1, ("galilaea", "syria"))],
        ),
    ]
    for s in cases:
        js = seat(s, "jews")
        offered = [a for a in g.legal_actions(s, js) if isinstance(a, Redirect)]
        assert any(a.territory for a in offered) and any(a.sends for a in offered)
        for a in offered:
            text = g.format_action(s, a)
            assert g.parse_action(s, js, text) == a, text
            act(s, "jews", a)
    several = [
        a for a in g.legal_actions(cases[1], seat(cases[1], "jews")) if isinstance(a, Redirect) and a.sends
    ]
    assert "Jerusalem-" in g.format_action(cases[1], several[0])


def test_r22_agent_sends_units_off_their_target() -> None:
    """R22: the Jewish AI plays Promised Land when it sets the mover back: the Coalition moving
    onto an Objective Point Marker is sent elsewhere."""
    s = moved({"jerusalem": {"coalition": 2}}, "coalition", [(2, ("jerusalem", "samaria", "aegyptus"))])
    s = s.model_copy(update={"markers": (Marker(owner="jews", territory="aegyptus"),)})
    a = HeuristicAgent(seed=3).choose(g, s, seat(s, "jews"))
    assert isinstance(a, Redirect) and a in g.legal_actions(s, seat(s, "jews"))
    t = act(s, "jews", a)
    assert units(t, "aegyptus", "coalition") < 2


# --------------------------------------------------------------------------- hand


def hands(s: State) -> State:
    s = set_f(s, "rome", hand=("advanced-culture", "circus-maximus"))
    s = set_f(s, "jews", hand=("promised-land", "industry"), combat_used=("shofar", "sicarii"))
    return set_f(s, "christians", hand=("city-riot",))


def test_r8_hand_lists_unused_and_used_combat_cards() -> None:
    """R8: "it can be any unused Combat Card the faction desires" and "The Gray Faction
    resolves combat using the Jewish Combat Deck": the Jewish hand shows the Power Cards, the
    unused Combat Cards with number and effect, the used ones marked, and that the Gray share
    the deck."""
    s = hands(fresh())
    text = g.hand_text(g.view(s, seat(s, "jews")))
    assert "Promised Land" in text and "Industry" in text
    assert "Jewish Combat Cards (the Gray Faction fights with this deck too):" in text
    for c in g.data.combat.values():
        if c.faction != "jews":
            assert c.name not in text
            continue
        if c.id in ("shofar", "sicarii"):
            assert f"{c.name} ({c.number}, used)" in text
        else:
            assert f"{c.name} ({c.number}): " in text
    assert "Levy of Galilee (1): add up to 2 of your units from supply before totalling" in text


def test_hand_never_shows_another_seats_power_cards() -> None:
    """Secret information: a seat sees its own Power Cards only; a spectator sees none."""
    s = hands(fresh())
    names = {f: [g.card_name(c) for c in s.factions[f].hand] for f in ("rome", "jews", "christians")}
    for f in ("rome", "coalition", "jews", "christians"):
        v = g.view(s, seat(s, f))
        assert [fv.id for fv in v.factions if fv.hand is not None] == [f]
        text = g.hand_text(v)
        for other, cards in names.items():
            for name in cards:
                assert (name in text) == (other == f), (f, name)
        assert f"{g.fname(f)} Combat Cards" in text
    spectator = g.view(s, None)
    assert all(fv.hand is None for fv in spectator.factions)
    assert g.hand_text(spectator) == "You hold no cards."


def test_hand_two_player_seat_sees_both_factions() -> None:
    """2-Player Rules: a seat plays two factions and sees both hands and both Combat Decks."""
    s = hands(fresh(2))
    text = g.hand_text(g.view(s, seat(s, "rome")))
    assert "Advanced Culture" in text and "Promised Land" in text and "City Riot" not in text
    assert "Rome Combat Cards" in text and "Jewish Combat Cards" in text


# --------------------------------------------------------------------------- command word prefixes


def test_notation_accepts_unambiguous_verb_prefixes() -> None:
    """Notation: "rec", "att", "mov", "en" stand for recruit, attack, move, end."""
    s = board(turn_of(fresh(), "jews"), {"jerusalem": {"jews": 2, "rome": 1}})
    s = dice(s, "jews", [4, 3, 2])
    js = seat(s, "jews")
    assert g.parse_action(s, js, "rec 4: 2 Jerusalem") == Recruit(die=0, placements=(("jerusalem", 2),))
    assert g.parse_action(s, js, "ATT 3: Rome in Jerusalem") == Attack(
        die=1, territory="jerusalem", target="rome"
    )
    assert g.parse_action(s, js, "mov 2: 1 Jerusalem-Samaria") == Move(
        die=2, paths=(Path(count=1, route=("jerusalem", "samaria")),)
    )
    assert g.parse_action(s, js, "en").kind == "end"
    assert g.parse_action(s, js, "don").kind == "done" and g.parse_action(s, js, "pa").kind == "pass"
    assert g.parse_action(s, js, "n") == Plunder(option="none")  # "no" and "none" mean the same
    assert g.parse_action(s, js, "salv") == Plunder(option="salvage")
    assert g.parse_action(s, js, "recruit 4: 2 Jerusalem") == Recruit(die=0, placements=(("jerusalem", 2),))


def test_notation_ambiguous_verb_prefix_lists_candidates() -> None:
    """Notation: a prefix of several command words is read as the one legal now; with several
    legal now (or none), the error names the words it could be."""
    s = board(turn_of(fresh(), "coalition"), {"germania": {"coalition": 2}})
    s = dice(s, "coalition", [4])
    cs = seat(s, "coalition")
    assert g.parse_action(s, cs, "m 4: 1 Germania-Gallia").kind == "move"  # marker is not legal now
    assert g.parse_action(s, cs, "ra 4").kind == "rage"  # nor raise or rampage
    with pytest.raises(AmbiguousActionError) as e:
        g.parse_action(s, cs, "r 4")
    assert e.value.candidates == ("rage", "recruit")
    assert str(e.value) == "'r' could be rage, recruit; which one?"
    j = dice(turn_of(s, "jews"), "jews", [4])
    with pytest.raises(AmbiguousActionError) as e:
        g.parse_action(j, seat(j, "jews"), "ra 4")  # none of them is legal for the Jews
    assert e.value.candidates == ("rage", "raise", "rampage")
    with pytest.raises(InvalidNotationError, match="Unknown action 'xyz'"):
        g.parse_action(s, cs, "xyz 4")


def test_notation_redirect_prefix() -> None:
    """Notation and R22: "red" stands for redirect."""
    s = three_to_aegyptus()
    assert g.parse_action(s, seat(s, "jews"), "red to Arabia") == Redirect(
        card="promised-land", territory="arabia"
    )
