"""Collect Tribute and Giving: the factions that pay choose their dice (RULINGS.md R15).

The card texts (shared/seeds/000_ee59181bd146d771.txt, Soul of the Empire Power Card Details):

- Collect Tribute: "Once: Each faction must lower an Unspent die by 1 pip. You may increase
  Unspent die (or dice) equal to the number of pips other factions lowered (2 or 3). If another
  faction has only 1s in their Unspent Dice Area, they must move a die to their Spent Dice Area."
- Giving: "Once: One faction of your choice gives you 4 pips from Unspent die(dice) to purchase
  2 Power Cards. You immediately draw the top 2 Power Cards."
"""

from __future__ import annotations

import pytest

from games.core import IllegalActionError, InvalidNotationError, NotYourTurnError
from games.soul_of_the_empire.agent import HeuristicAgent
from games.soul_of_the_empire.model import (
    Buy,
    Done,
    EndMain,
    Give,
    Lower,
    Pass,
    PlayPower,
    Raise,
    State,
)
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    FixedRng,
    act,
    dice,
    fresh,
    g,
    play,
    roundtrip,
    seat,
    set_f,
    turn_of,
)


def unspent(s: State, faction: str) -> list[tuple[int, bool]]:
    """(value, in the Dice Sequence) of each Unspent die, in die order."""
    return [(d.value, d.seq) for d in s.factions[faction].dice if d.place == "unspent"]


def notes(events: tuple) -> list[str]:
    return [e.describe() for e in events]


def tribute_state() -> State:
    """4 players (Rome, Coalition, Jewish, Christian): every other faction has two kinds of
    Unspent dice, so each is asked."""
    s = dice(fresh(), "rome", [2, 5, 6], [True, True, False])
    s = dice(s, "coalition", [4, 3], [True, False])
    s = dice(s, "jews", [5, 2], [True, True])
    s = dice(s, "christians", [6, 2, 1], [True, False, False])
    return play(s, "rome", "main", PlayPower(card="collect-tribute"))


# --------------------------------------------------------------------------- Collect Tribute


def test_collect_tribute_asks_every_other_faction_in_play_order() -> None:
    """Collect Tribute: "Each faction must lower an Unspent die by 1 pip" — each other faction,
    in play order, is asked (a response prompt to its seat) and lowers the die it names
    (RULINGS.md R15)."""
    s = tribute_state()
    assert s.order == ("rome", "coalition", "jews", "christians")
    assert s.tribute is not None and s.tribute.waiting == ("coalition", "jews", "christians")
    for faction, value, outside, before, after in (
        ("coalition", 3, True, [(4, True), (3, False)], [(4, True), (2, False)]),
        ("jews", 5, False, [(5, True), (2, True)], [(4, True), (2, True)]),
        ("christians", 6, False, [(6, True), (2, False), (1, False)], [(5, True), (2, False), (1, False)]),
    ):
        assert {x: g.acting(s, x) for x in range(4) if g.acting(s, x)} == {seat(s, faction): faction}
        prompt = g.to_act(s)[seat(s, faction)]
        assert prompt.kind == "respond"
        who = {
            "coalition": "the Coalition",
            "jews": "the Jewish faction",
            "christians": "the Christian faction",
        }
        assert prompt.text.startswith(
            f"Collect Tribute: Rome collects from {who[faction]} — lower one of your Unspent dice by 1 pip"
        )
        assert unspent(s, faction) == before
        roundtrip(s, faction)
        text = f"lower {value}" + (" outside" if outside else "")
        step = g.apply(s, seat(s, faction), g.parse_action(s, seat(s, faction), text), FixedRng())
        s = step.state
        assert unspent(s, faction) == after
        assert any(f"lowers a {value}" in n for n in notes(step.events))
        assert all(e.visible_to is None for e in step.events)  # public notes
    # 3 pips collected: Rome is asked to raise
    assert s.tribute.waiting == () and s.tribute.collected == 3
    assert g.acting(s, seat(s, "rome")) == "rome" and g.to_act(s)[seat(s, "rome")].kind == "turn"


def test_collect_tribute_only_ones_moves_a_die_to_spent() -> None:
    """Collect Tribute: "If another faction has only 1s in their Unspent Dice Area, they must move
    a die to their Spent Dice Area." The faction chooses which (`lower 1` / `lower 1 outside`);
    the 1 moved counts as 1 pip collected (RULINGS.md R15)."""
    s = dice(fresh(), "rome", [2])
    s = dice(s, "coalition", [1, 1], [True, False])
    s = dice(s, "jews", [1, 1, 1])  # one kind of die: no choice
    s = dice(s, "christians", [])  # no Unspent dice: skipped
    s = play(s, "rome", "main", PlayPower(card="collect-tribute"))
    prompt = g.to_act(s)[seat(s, "coalition")]
    assert "you have only 1s Unspent: move one to your Spent Dice area" in prompt.text
    assert g.legal_actions(s, seat(s, "coalition")) == [Pass(), Lower(die=0), Lower(die=1)]
    step = g.apply(
        s, seat(s, "coalition"), g.parse_action(s, seat(s, "coalition"), "lower 1 outside"), FixedRng()
    )
    s = step.state
    assert [d.place for d in s.factions["coalition"].dice[:2]] == ["unspent", "spent"]
    assert [d.place for d in s.factions["jews"].dice[:3]] == ["spent", "unspent", "unspent"]
    assert [d.value for d in s.factions["jews"].dice[:3]] == [1, 1, 1]
    text = notes(step.events)
    assert any("the Coalition has only 1s Unspent and moves a 1" in n for n in text)
    assert any(
        "the Jewish faction has only 1s Unspent and moves a 1" in n and "(no other choice)" in n for n in text
    )
    assert any("the Christian faction has no Unspent dice to lower" in n for n in text)
    assert s.tribute.collected == 2  # a 1 moved to Spent is a pip collected


def test_collect_tribute_a_one_cannot_be_lowered_while_a_higher_die_is_unspent() -> None:
    """Collect Tribute: the only-1s clause applies only to a faction with only 1s; one with a
    higher die lowers that (RULINGS.md R15). The refusal changes nothing."""
    s = dice(fresh(), "rome", [2])
    s = dice(s, "coalition", [1, 3, 4], [True, True, True])
    s = dice(s, "jews", [])
    s = dice(s, "christians", [])
    s = play(s, "rome", "main", PlayPower(card="collect-tribute"))
    assert g.legal_actions(s, seat(s, "coalition")) == [Pass(), Lower(die=1), Lower(die=2)]
    with pytest.raises(IllegalActionError, match="a 1 cannot be lowered while you have a higher Unspent die"):
        act(s, "coalition", Lower(die=0))


def test_collect_tribute_rome_raises_exactly_the_pips_collected() -> None:
    """Collect Tribute: "You may increase Unspent die (or dice) equal to the number of pips other
    factions lowered" — one pip at a time, on any dice, no more than collected; then the Main
    Phase goes on (RULINGS.md R15)."""
    s = tribute_state()
    for faction in ("coalition", "jews", "christians"):
        s = act(s, faction, Pass())
    assert s.tribute.collected == 3
    legal = g.legal_actions(s, seat(s, "rome"))
    assert legal == [Done(), Raise(die=0), Raise(die=1)]  # the 6 cannot rise
    roundtrip(s, "rome")
    s = act(s, "rome", g.parse_action(s, seat(s, "rome"), "raise 2"))
    s = act(s, "rome", g.parse_action(s, seat(s, "rome"), "raise 3"))
    assert "Collect Tribute: Rome has 1 of the 3 pips collected left" in g.to_act(s)[seat(s, "rome")].text
    step = g.apply(s, seat(s, "rome"), Raise(die=1), FixedRng())
    s = step.state
    assert unspent(s, "rome") == [(4, True), (6, True), (6, False)]
    assert s.tribute is None and s.phase == "main" and s.active == "rome"
    assert "Collect Tribute: Rome collected 3 pips and raised 3." in notes(step.events)
    assert g.legal_actions(s, seat(s, "rome"))[0] == EndMain()  # the Main Phase goes on


def test_collect_tribute_rome_may_stop_early() -> None:
    """Collect Tribute: "You *may* increase" — `done` stops raising early; the turn goes on in
    the phase the card was played in (Start) (RULINGS.md R15)."""
    s = dice(fresh(), "rome", [2, 3])
    s = dice(s, "coalition", [4])
    s = dice(s, "jews", [4])
    s = dice(s, "christians", [4])
    s = play(s, "rome", "start", PlayPower(card="collect-tribute"))
    assert s.tribute.collected == 3 and s.tribute.waiting == ()  # each had one choice
    s = act(s, "rome", Raise(die=0))
    step = g.apply(s, seat(s, "rome"), Done(), FixedRng())
    s = step.state
    assert unspent(s, "rome") == [(3, True), (3, True)]
    assert "Collect Tribute: Rome collected 3 pips and raised 1 (stopped)." in notes(step.events)
    assert s.tribute is None and s.phase == "start"
    assert act(s, "rome", Done()).phase == "main"


def test_collect_tribute_no_die_above_six() -> None:
    """Collect Tribute: dice are 1-6, so no raise takes a die above 6; when nothing is left below
    6 the raising ends by itself (RULINGS.md R15)."""
    s = dice(fresh(), "rome", [5, 6])
    s = dice(s, "coalition", [4])
    s = dice(s, "jews", [4])
    s = dice(s, "christians", [4])
    s = play(s, "rome", "main", PlayPower(card="collect-tribute"))
    with pytest.raises(IllegalActionError, match="no die goes above 6"):
        act(s, "rome", Raise(die=1))
    with pytest.raises(IllegalActionError, match="You have no Unspent 6 outside your Dice Sequence"):
        g.parse_action(s, seat(s, "rome"), "raise 6 outside")
    step = g.apply(s, seat(s, "rome"), Raise(die=0), FixedRng())
    assert unspent(step.state, "rome") == [(6, True), (6, True)] and step.state.tribute is None
    assert "Collect Tribute: Rome collected 3 pips and raised 1; no Unspent die below 6 is left." in notes(
        step.events
    )
    # all at 6 already: nothing to raise, no prompt
    s = dice(s.model_copy(update={"tribute": None}), "rome", [6])
    s = set_f(s, "rome", hand=("collect-tribute",))
    s = s.model_copy(update={"power_played": 0})
    s = act(s, "rome", PlayPower(card="collect-tribute"))
    assert s.tribute is None and unspent(s, "rome") == [(6, True)]


def test_collect_tribute_played_by_the_coalition() -> None:
    """Collect Tribute salvaged by the Coalition (RULINGS.md R14): Rome is one of the "other
    factions" and lowers a die; the Coalition raises its own (RULINGS.md R15)."""
    s = dice(fresh(), "coalition", [2, 2])
    s = dice(s, "rome", [5, 4])
    s = dice(s, "jews", [])
    s = dice(s, "christians", [3])
    s = play(s, "coalition", "main", PlayPower(card="collect-tribute"))
    assert s.tribute.player == "coalition" and s.tribute.waiting == ("rome", "jews", "christians")
    assert g.to_act(s)[seat(s, "rome")].text.startswith("Collect Tribute: the Coalition collects from Rome")
    s = act(s, "rome", g.parse_action(s, seat(s, "rome"), "lower 4"))
    assert unspent(s, "rome") == [(5, True), (3, True)]
    assert s.tribute.collected == 2 and g.acting(s, seat(s, "coalition")) == "coalition"
    s = act(s, "coalition", Raise(die=0))
    s = act(s, "coalition", Raise(die=0))
    assert unspent(s, "coalition") == [(4, True), (2, True)] and s.tribute is None


def test_collect_tribute_two_player_game() -> None:
    """2-Player Rules: the player's own second faction is one of the "other factions" and pays
    too (as before R15 made it a choice); each faction is asked at its seat (RULINGS.md R15)."""
    s = fresh(players=2)
    assert s.order == ("rome", "coalition", "jews", "christians")
    s = dice(s, "rome", [3])
    s = dice(s, "coalition", [2, 5])
    s = dice(s, "jews", [4, 3])
    s = dice(s, "christians", [2, 6])
    s = play(s, "rome", "main", PlayPower(card="collect-tribute"))
    assert g.acting(s, seat(s, "coalition")) == "coalition" and g.acting(s, seat(s, "rome")) is None
    s = act(s, "coalition", Lower(die=1))
    assert g.acting(s, seat(s, "jews")) == "jews" and seat(s, "jews") == seat(s, "rome")
    s = act(s, "jews", Lower(die=1))
    s = act(s, "christians", Lower(die=0))
    assert unspent(s, "coalition") == [(2, True), (4, True)]
    assert unspent(s, "jews") == [(4, True), (2, True)]
    assert unspent(s, "christians") == [(1, True), (6, True)]
    assert s.tribute.collected == 3 and g.acting(s, seat(s, "rome")) == "rome"


def test_collect_tribute_pass_lowers_the_least_costly_die() -> None:
    """Collect Tribute: a faction that passes (the host passes when the response time runs out)
    lowers a die outside its Dice Sequence if it has one, else its lowest (RULINGS.md R15)."""
    s = tribute_state()
    s = act(s, "coalition", Pass())
    assert unspent(s, "coalition") == [(4, True), (2, False)]
    s = act(s, "jews", Pass())
    assert unspent(s, "jews") == [(5, True), (1, True)]
    s = act(s, "christians", Pass())  # the 2 outside: a 1 cannot be lowered
    assert unspent(s, "christians") == [(6, True), (1, False), (1, False)]


def test_collect_tribute_wrong_player_and_bad_values_change_nothing() -> None:
    """Collect Tribute: only the faction asked answers; a die it does not have, a verb of another
    step or an action of the turn is refused with what is legal, and nothing changes (RULINGS.md R15)."""
    s = tribute_state()
    with pytest.raises(NotYourTurnError):
        g.apply(s, seat(s, "jews"), Lower(die=0), FixedRng())
    with pytest.raises(NotYourTurnError):
        g.apply(s, seat(s, "rome"), Raise(die=0), FixedRng())
    co = seat(s, "coalition")
    with pytest.raises(IllegalActionError, match=r"You have no Unspent 6; Unspent: 4, 3 outside"):
        g.parse_action(s, co, "lower 6")
    with pytest.raises(IllegalActionError, match="You have no Unspent 4 outside your Dice Sequence"):
        g.parse_action(s, co, "lower 4 outside")
    with pytest.raises(InvalidNotationError, match="lower <value>"):
        g.parse_action(s, co, "lower 4 3")
    with pytest.raises(IllegalActionError, match="'give' is not possible now: the question now is .Collect Tribute"):
        g.parse_action(s, co, "give 4")
    with pytest.raises(
        IllegalActionError, match="lower one of your Unspent dice by 1 pip: lower 3 outside, lower 4"
    ):
        g.apply(s, co, EndMain(), FixedRng())
    with pytest.raises(IllegalActionError, match="lower 3 outside, lower 4"):
        g.apply(s, co, Lower(die=4), FixedRng())  # a spent die
    assert g.parse_action(s, co, "lower 3") == Lower(die=1)  # the only 3 is outside: no ambiguity
    # Rome's raising: wrong values
    for faction in ("coalition", "jews", "christians"):
        s = act(s, faction, Pass())
    rome = seat(s, "rome")
    with pytest.raises(IllegalActionError, match="'lower' is not possible now: the question now is .Collect Tribute: Rome has 3"):
        g.parse_action(s, rome, "lower 2")
    with pytest.raises(
        IllegalActionError, match="raise one of your Unspent dice by 1 pip: raise 2, raise 5; or done"
    ):
        g.apply(s, rome, Pass(), FixedRng())
    before = s
    with pytest.raises(IllegalActionError):
        g.apply(s, rome, Raise(die=2), FixedRng())  # the 6 outside
    assert s == before


def test_collect_tribute_state_is_data_for_undo_and_replay() -> None:
    """Collect Tribute in progress is plain state: it survives a JSON round trip, and replaying
    the same answers gives the same game (undo and replay rebuild states this way)."""
    s = tribute_state()
    copy = State.model_validate_json(s.model_dump_json())
    assert copy == s
    answers = [("coalition", "lower 3 outside"), ("jews", "lower 2"), ("christians", "lower 6")]
    a, b = s, copy
    for faction, text in answers:
        a = act(a, faction, g.parse_action(a, seat(a, faction), text))
        b = act(b, faction, g.parse_action(b, seat(b, faction), text))
    assert a == b and s == copy  # applying never changes the state it started from


def test_collect_tribute_then_give_to_caesar_window() -> None:
    """Collect Tribute resolved, the turn goes on: a purchase afterwards opens Give to Caesar as
    usual (RULINGS.md R15)."""
    s = set_f(fresh(), "rome", durable=("give-to-caesar",))
    s = dice(s, "rome", [4, 2], [True, True])
    s = dice(s, "coalition", [3])
    s = dice(s, "jews", [])
    s = dice(s, "christians", [])
    s = play(s, "rome", "main", PlayPower(card="collect-tribute"))
    s = act(s, "rome", Raise(die=1))
    assert s.tribute is None and unspent(s, "rome") == [(4, True), (3, True)]
    s = act(s, "rome", Buy(die=0))
    assert s.window is not None and s.window.kind == "caesar"
    s = act(s, "rome", Raise(die=1))
    assert unspent(s, "rome") == [(4, True)] and s.window is None


def test_agent_pays_the_least_costly_die_and_raises_its_sequence() -> None:
    """The heuristic player lowers a die outside its Dice Sequence (else its lowest) and raises
    its highest Dice Sequence die below 6 (RULINGS.md R15)."""
    s = tribute_state()
    agent = HeuristicAgent(seed=1)
    assert agent.choose(g, s, seat(s, "coalition")) == Lower(die=1)  # the 3 outside
    s = act(s, "coalition", agent.choose(g, s, seat(s, "coalition")))
    assert agent.choose(g, s, seat(s, "jews")) == Lower(die=1)  # the lower 2
    s = act(s, "jews", agent.choose(g, s, seat(s, "jews")))
    s = act(s, "christians", agent.choose(g, s, seat(s, "christians")))
    assert agent.choose(g, s, seat(s, "rome")) == Raise(die=1)  # the 5 of the sequence


# --------------------------------------------------------------------------- Giving


def giving_state(values: list[int], seq: list[bool] | None = None, giver: str = "rome") -> State:
    s = dice(fresh(), giver, values, seq)
    s = set_f(s, "christians", hand=())
    return play(s, "christians", "main", PlayPower(card="giving", target=giver))


def test_giving_the_named_faction_chooses_its_dice() -> None:
    """Giving: "One faction of your choice gives you 4 pips from Unspent die(dice) to purchase 2
    Power Cards. You immediately draw the top 2 Power Cards." The faction named gives the dice of
    its choice, whole, as when buying, until they total 4 pips (RULINGS.md R15)."""
    s = giving_state([5, 3, 1, 2], [True, True, False, True])
    rome = seat(s, "rome")
    assert g.acting(s, rome) == "rome" and g.acting(s, seat(s, "christians")) is None
    prompt = g.to_act(s)[rome]
    assert prompt.kind == "respond" and prompt.text.startswith("Giving: the Christians take 4 pips from Rome")
    assert g.legal_actions(s, rome) == [Pass(), Give(die=0), Give(die=1), Give(die=2), Give(die=3)]
    roundtrip(s, "rome")
    s = act(s, "rome", g.parse_action(s, rome, "give 1 outside"))
    assert s.giving is not None and s.giving.given == 1 and "(1 given so far)" in g.to_act(s)[rome].text
    assert len(s.factions["christians"].hand) == 0
    step = g.apply(s, rome, g.parse_action(s, rome, "give 3"), FixedRng())
    s = step.state
    assert [d.place for d in s.factions["rome"].dice[:4]] == ["unspent", "spent", "spent", "unspent"]
    assert unspent(s, "rome") == [(5, True), (2, True)]
    assert s.giving is None and len(s.factions["christians"].hand) == 2
    assert "Giving: Rome gives the Christians 4 pips (1, 3)." in notes(step.events)
    assert s.phase == "main" and g.acting(s, seat(s, "christians")) == "christians"


def test_giving_a_die_over_four_pips_is_given_whole() -> None:
    """Giving: purchasing spends dice whole ("Place the die (or dice) used into the Power Card
    area"), so a 6 given pays the 4 pips and no change is given (RULINGS.md R15)."""
    s = giving_state([6, 2], [True, True])
    s = act(s, "rome", Give(die=0))
    assert unspent(s, "rome") == [(2, True)] and s.giving is None
    assert len(s.factions["christians"].hand) == 2


def test_giving_short_of_four_pips_gives_all_and_the_christians_still_draw_two() -> None:
    """Giving: a faction with 4 pips or fewer Unspent has no choice — it gives them all; short of 4
    it gives what it has and the Christians still "immediately draw the top 2 Power Cards"
    (RULINGS.md R15)."""
    s = dice(fresh(), "jews", [2, 1])
    s = set_f(s, "christians", hand=())
    step = g.apply(
        turn_of(set_f(s, "christians", hand=("giving",)), "christians"),
        seat(s, "christians"),
        PlayPower(card="giving", target="jews"),
        FixedRng(),
    )
    s = step.state
    assert unspent(s, "jews") == [] and s.giving is None
    assert len(s.factions["christians"].hand) == 2
    assert "Giving: the Jewish faction has only 3 pips Unspent and gives them all (2, 1)." in notes(
        step.events
    )
    # exactly 4 pips: all given without a question
    s = giving_state([3, 1], [True, False])
    assert unspent(s, "rome") == [] and s.giving is None and len(s.factions["christians"].hand) == 2


def test_giving_pass_gives_the_least_costly_dice() -> None:
    """Giving: a faction that passes gives dice outside its Dice Sequence first, the smallest that
    completes the 4 pips, else the largest (RULINGS.md R15)."""
    s = giving_state([5, 4, 3, 2], [True, True, False, False])
    s = act(s, "rome", Pass())  # the 3 outside (no outside die completes 4)
    assert s.giving.given == 3
    s = act(s, "rome", Pass())  # the 2 outside
    assert unspent(s, "rome") == [(5, True), (4, True)] and s.giving is None
    agent = HeuristicAgent(seed=1)
    s = giving_state([6, 4, 5], [True, True, False])
    assert agent.choose(g, s, seat(s, "rome")) == Give(die=2)  # the 5 outside completes 4


def test_giving_wrong_player_and_bad_values_change_nothing() -> None:
    """Giving: only the faction named answers; a die it does not have is refused with its
    choices, and nothing changes (RULINGS.md R15)."""
    s = giving_state([5, 3], [True, True])
    before = s
    with pytest.raises(NotYourTurnError):
        g.apply(s, seat(s, "christians"), Give(die=0), FixedRng())
    rome = seat(s, "rome")
    with pytest.raises(IllegalActionError, match="You have no Unspent 4; Unspent: 5, 3"):
        g.parse_action(s, rome, "give 4")
    with pytest.raises(IllegalActionError, match="'lower' is not possible now: the question now is .Giving"):
        g.parse_action(s, rome, "lower 5")
    with pytest.raises(
        IllegalActionError, match="give the Christians one of your Unspent dice: give 3, give 5; or pass"
    ):
        g.apply(s, rome, Give(die=3), FixedRng())
    with pytest.raises(IllegalActionError, match="give 3, give 5"):
        g.apply(s, rome, Raise(die=0), FixedRng())
    assert s == before


def test_giving_is_a_purchase_for_give_to_caesar() -> None:
    """Giving: the pips are given "to purchase 2 Power Cards", so Give to Caesar ("Whenever a
    faction purchases Power Cards, you may increase the value of 1 Unspent Die by 1 pip") opens
    once the Christians have drawn (RULINGS.md R15)."""
    s = set_f(fresh(), "rome", durable=("give-to-caesar",))
    s = dice(s, "rome", [3])
    s = dice(s, "jews", [4])
    s = set_f(s, "christians", hand=())
    s = play(s, "christians", "main", PlayPower(card="giving", target="jews"))
    assert s.giving is None and len(s.factions["christians"].hand) == 2
    assert s.window is not None and s.window.kind == "caesar" and s.window.mover == "christians"
    s = act(s, "rome", Raise(die=0))
    assert unspent(s, "rome") == [(4, True)] and s.window is None and s.phase == "main"


def test_giving_two_player_game() -> None:
    """2-Player Rules: the Christians may name the other player's faction; that seat chooses the
    dice (RULINGS.md R15)."""
    s = fresh(players=2)
    s = dice(s, "jews", [3, 3, 2])
    s = set_f(s, "christians", hand=())
    s = play(s, "christians", "main", PlayPower(card="giving", target="jews"))
    assert seat(s, "jews") != seat(s, "christians") and g.acting(s, seat(s, "jews")) == "jews"
    s = act(s, "jews", Give(die=2))  # then a 3, its only kind of die left, goes without a question
    assert unspent(s, "jews") == [(3, True)] and len(s.factions["christians"].hand) == 2


def test_view_shows_who_is_paying() -> None:
    """The view names the pending payment for every viewer and shows no hand but the viewer's."""
    s = tribute_state()
    v = g.view(s, None)
    assert v.window is not None and v.window.startswith("Collect Tribute: Rome collects from the Coalition")
    assert v.waiting == (seat(s, "coalition"),)
    assert all(f.hand is None for f in v.factions)
