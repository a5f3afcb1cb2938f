"""Soul of the Empire: the players' decisions in combat (RULINGS.md R9, R16).

Elder is played face up before the Combat Cards and, after the reveal, its side
chooses -1 to its own value, to the other's, or neither; Pharaoh's Fate is revealed or
kept; Grace's "reverse a combat result" is used or not; Crucify returns the captured
unit Rome names, or is declined. Card texts: rule text, "Soul of the Empire Power Card
Details" (shared/seeds/000_ee59181bd146d771.txt).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.core import IllegalActionError, InvalidNotationError, Rng
from games.core.model import Event
from games.soul_of_the_empire.game import GAME, _Ctx
from games.soul_of_the_empire.model import (
    Attack,
    Commit,
    Convert,
    Crucify,
    Elder,
    Keep,
    Pass,
    PlayPower,
    Prepare,
    Reveal,
    State,
    UseGrace,
)
from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import (
    FixedRng,
    board,
    dice,
    fresh,
    pass_elder,
    prepare,
    seat,
    set_f,
    turn_of,
    units,
)

g = GAME


def step(s: State, faction: str, a: Any) -> tuple[State, tuple[Event, ...]]:
    r = g.apply(s, seat(s, faction), a, FixedRng())
    return r.state, r.events


def act(s: State, faction: str, a: Any) -> State:
    return step(s, faction, a)[0]


def attack(
    s: State, attacker: str, defender: str, territory: str, die_values: list[int] | None = None
) -> State:
    s = dice(turn_of(s, attacker), attacker, die_values or [1])
    return pass_elder(act(s, attacker, Attack(die=0, territory=territory, target=defender)))


def commit(
    s: State,
    attacker: str,
    defender: str,
    a: Commit,
    d: Commit,
    a_power: str | None = None,
    d_power: str | None = None,
) -> State:
    """Each side's answer before the Combat Cards (``*_power`` face down, else pass), then the Combat Cards."""
    s = prepare(prepare(s, attacker, a_power), defender, d_power)
    return act(act(s, attacker, a), defender, d)


def seen_by(events: tuple[Event, ...], viewer: int) -> str:
    return " ".join(e.describe() for e in events if e.visible(viewer))


# --------------------------------------------------------------------------- Elder


def elder_fight() -> State:
    """The Coalition attacks the Christians in Germania (highest wins): Berserker Charge
    2 + 6 = 8 against Loaves and Fishes 2 + 2 joining + 4 = 8; the Christians hold Elder."""
    s = board(fresh(), {"germania": {"christians": 2, "coalition": 2}})
    s = set_f(s, "christians", hand=("elder",))
    s = attack(s, "coalition", "christians", "germania")
    assert s.combat.stage == "elder" and s.combat.question == "elder_play"
    s = act(s, "christians", Elder())
    return commit(
        s, "coalition", "christians", Commit(card="berserker-charge"), Commit(card="loaves-and-fishes")
    )


def test_elder_is_asked_face_up_before_the_choice_only_when_held() -> None:
    """Elder: "Play face up before either Combat card is played" (RULINGS.md R9): a side
    holding Elder is asked first, in the open; without Elder the secret choice starts at once."""
    s = board(fresh(), {"germania": {"christians": 2, "coalition": 2}})
    s = set_f(s, "christians", hand=())
    plain = attack(s, "coalition", "christians", "germania")
    assert plain.combat.stage == "choose"
    held = attack(
        set_f(s, "christians", hand=("elder", "guardian-angel")), "coalition", "christians", "germania"
    )
    assert g.to_act(held) == {seat(held, "christians"): g.to_act(held)[seat(held, "christians")]}
    prompt = g.to_act(held)[seat(held, "christians")]
    assert prompt.kind == "respond" and "Elder" in prompt.text
    assert g.legal_actions(held, seat(held, "christians")) == [Elder(), Pass()]
    played, events = step(held, "christians", Elder())
    assert "plays Elder face up" in seen_by(events, seat(held, "coalition"))
    assert played.combat.stage == "choose" and played.combat.elder == "christians"
    assert played.factions["christians"].hand == ("guardian-angel",)
    # declining: the face-down Power Cards come next; Elder is not one of them
    declined = act(held, "christians", Pass())
    assert declined.combat.stage == "powers" and declined.combat.elder is None
    cs = seat(declined, "christians")
    assert g.legal_actions(declined, cs) == [Pass(), Prepare(power="guardian-angel")]
    with pytest.raises(IllegalActionError, match="face up"):
        act(declined, "christians", g.parse_action(declined, cs, "play Elder"))


def test_elder_face_up_blocks_other_power_cards() -> None:
    """Elder: "No other Power Cards affect this combat." (RULINGS.md R9): once Elder is face
    up, neither side is offered a Power Card with its Combat Card, and one named is refused."""
    s = board(fresh(), {"syria": {"rome": 2, "christians": 2}})
    s = set_f(s, "rome", hand=("praetorian-guard",))
    s = set_f(s, "christians", hand=("elder", "guardian-angel"))
    s = attack(s, "rome", "christians", "syria")
    s = act(s, "christians", Elder())
    assert s.combat.stage == "choose"  # no face-down Power Card round
    for side in ("rome", "christians"):
        assert all(isinstance(a, Commit | Pass) for a in g.legal_actions(s, seat(s, side)))
    with pytest.raises(IllegalActionError, match="commit <card>"):
        act(s, "rome", Prepare(power="praetorian-guard"))
    with pytest.raises(IllegalActionError, match="before the Combat Cards"):
        g.parse_action(s, seat(s, "rome"), "commit Legio with Praetorian Guard")
    assert "Elder is face up" in g.to_act(s)[seat(s, "rome")].text


@pytest.mark.parametrize(
    ("choice", "values", "winner"),
    [("mine", (8, 7), "coalition"), ("theirs", (7, 8), "christians"), ("none", (8, 8), "christians")],
)
def test_elder_three_choices(choice: str, values: tuple[int, int], winner: str) -> None:
    """Elder: "After revealing Combat Cards, you can -1 to either your, or the other faction's,
    Combat Value." (RULINGS.md R9): 8 against 8 (a tie goes to the defender, the Christians);
    -1 to the Christians' own value gives the Coalition the win, -1 to the Coalition's or
    neither leaves it with the Christians."""
    s = elder_fight()
    assert s.combat.stage == "decide" and s.combat.question == "elder"
    assert s.combat.values == {"coalition": 8, "christians": 8}
    prompt = g.to_act(s)[seat(s, "christians")]
    assert "Berserker Charge (6)" in prompt.text and "Loaves and Fishes (4)" in prompt.text
    assert "Christian is winning" in prompt.text
    s = act(s, "christians", Elder(choice=choice))
    r = s.last_combat
    assert (r.attacker_value, r.defender_value, r.winner) == (*values, winner)
    assert "elder" in s.factions["christians"].discard
    assert "Elder: " in r.text


def test_elder_face_up_blocks_grace() -> None:
    """Elder: "No other Power Cards affect this combat." — not even the Christians' Durable
    Grace (RULINGS.md R9): with Elder face up a lost combat is not offered for reversal."""
    s = board(fresh(), {"germania": {"christians": 2, "coalition": 2}})
    s = set_f(s, "christians", hand=("elder",), durable=("grace",))
    s = attack(s, "coalition", "christians", "germania")
    s = act(s, "christians", Elder())
    # Berserker Charge 2 + 6 - 1 (Prayer) = 7 against Prayer 2 + 2 = 4
    s = commit(s, "coalition", "christians", Commit(card="berserker-charge"), Commit(card="prayer"))
    s = act(s, "christians", Elder(choice="theirs"))
    assert s.last_combat.winner == "coalition" and s.last_combat.attacker_value == 6
    assert s.factions["christians"].grace_now == 0 and "Grace" not in s.last_combat.text


def test_elder_face_up_blocks_crucify_and_conscription() -> None:
    """Elder: "No other Power Cards affect this combat." — Rome's Durable Conscription and
    Crucify are Power Cards too (RULINGS.md R9, R16)."""
    s = board(fresh(), {"syria": {"rome": 2, "christians": 1}})
    s = set_f(s, "rome", durable=("crucify", "conscription"), captured={"jews": 2}, capture_track=2)
    s = set_f(s, "christians", hand=("elder",))
    s = attack(s, "rome", "christians", "syria")
    s = act(s, "christians", Elder())
    assert s.combat.stage == "choose"  # Conscription is not asked
    with pytest.raises(IllegalActionError, match="commit <card>"):
        act(s, "rome", Prepare(conscript=(("jews", 1),)))
    # lowest wins: Rome 2 + 5 = 7 against the Christians 1 + 0 - 1 = 0
    s = commit(s, "rome", "christians", Commit(card="legio"), Commit(card="turn-the-other-cheek"))
    s = act(s, "christians", Elder(choice="none"))
    assert s.last_combat.winner == "christians" and units(s, "syria", "rome") == 0
    assert s.factions["rome"].captured == {"jews": 2} and s.factions["rome"].capture_track == 2


# --------------------------------------------------------------------------- Pharaoh's Fate


def pharaoh_attack(die_values: list[int]) -> State:
    """The Jews attack Rome in Jerusalem with Pharaoh's Fate face down: Shofar 1 + 6 = 7 against
    Legio X Fretensis 5 + 5 = 10 — Rome is winning."""
    s = board(fresh(), {"jerusalem": {"rome": 5, "jews": 1}})
    s = set_f(s, "jews", hand=("pharaohs-fate", "tithe"))
    s = attack(s, "jews", "rome", "jerusalem", die_values)
    s = commit(s, "jews", "rome", Commit(card="shofar"), Commit(card="legio"), a_power="pharaohs-fate")
    assert s.combat.question == "pharaoh" and s.combat.winner == "rome"
    assert g.to_act(s)[seat(s, "jews")].kind == "turn"
    return s


def test_pharaohs_fate_revealed_reverses_the_result() -> None:
    """Pharaoh's Fate: "If revealed, the combat results are reversed." (RULINGS.md R9): the
    Jews win and the 5 Roman units return to supply; the card is spent (no other Power Card)."""
    s = pharaoh_attack([1, 3])
    rome_supply = s.factions["rome"].supply
    s = act(s, "jews", Reveal())
    assert s.last_combat.winner == "jews" and units(s, "jerusalem", "rome") == 0
    assert s.factions["rome"].supply == rome_supply + 5
    assert "pharaohs-fate" in s.factions["jews"].discard and s.power_played == 1
    assert "Pharaoh's Fate is revealed: the result is reversed" in s.last_combat.text
    with pytest.raises(IllegalActionError):
        act(s, "jews", PlayPower(card="tithe", values=(3,)))


def test_pharaohs_fate_kept_returns_and_allows_another_power_card() -> None:
    """Pharaoh's Fate: "If not revealed, return this card to your hand. You may play another
    Power Card this turn if you return this card to your hand." (RULINGS.md R9)."""
    s = pharaoh_attack([1, 3])
    s = act(s, "jews", Keep())
    assert s.last_combat.winner == "rome" and s.factions["rome"].captured == {"jews": 1}
    assert "pharaohs-fate" in s.factions["jews"].hand and s.power_played == 0
    assert "Pharaoh" not in s.last_combat.text
    s = act(s, "jews", PlayPower(card="tithe", values=(3,)))
    assert 6 in [d.value for d in s.factions["jews"].dice if d.place == "unspent"]


def test_pharaohs_fate_choose_whether_to_reveal_even_when_winning() -> None:
    """Pharaoh's Fate: "After the Combat Cards are revealed, choose whether or not to reveal this
    card." — the choice is its player's whether its side is winning or losing (RULINGS.md R9):
    the Jews, winning, are asked; keeping it returns it unrevealed, revealing it reverses the
    result."""
    s = board(fresh(), {"jerusalem": {"rome": 1, "jews": 5}})
    s = set_f(s, "jews", hand=("pharaohs-fate",))
    s = attack(s, "rome", "jews", "jerusalem")
    s = commit(s, "rome", "jews", Commit(card="pax-deorum"), Commit(card="shofar"), d_power="pharaohs-fate")
    assert s.combat is not None and s.combat.question == "pharaoh" and s.combat.winner == "jews"
    assert g.legal_actions(s, seat(s, "jews")) == [Reveal(), Keep(), Pass()]
    kept = act(s, "jews", Keep())
    assert kept.last_combat.winner == "jews" and kept.factions["jews"].hand == ("pharaohs-fate",)
    assert "Pharaoh" not in kept.last_combat.text
    revealed = act(s, "jews", Reveal())
    assert revealed.last_combat.winner == "rome" and "pharaohs-fate" in revealed.factions["jews"].discard
    assert revealed.factions["rome"].captured == {"jews": 5}


def test_pharaohs_fate_choice_when_a_card_removed_the_final_unit() -> None:
    """Pharaoh's Fate: "choose whether or not to reveal this card" — also when a Combat Card
    removed the final unit before the values count (RULINGS.md R9)."""
    s = board(fresh(), {"jerusalem": {"rome": 1, "jews": 3}})
    s = set_f(s, "jews", hand=("pharaohs-fate",))
    s = attack(s, "rome", "jews", "jerusalem")
    s = commit(s, "rome", "jews", Commit(card="legio"), Commit(card="sicarii"), d_power="pharaohs-fate")
    assert s.combat is not None and s.combat.early and s.combat.question == "pharaoh"
    assert act(s, "jews", Keep()).last_combat.winner == "jews"


def test_coalition_face_down_card_asked_alike_whichever_it_is() -> None:
    """RULINGS.md R25: the question on a face-down Power Card never tells which card it is. The
    Coalition, winning with a salvaged Guardian Angel face down, is asked the same question as
    with Pharaoh's Fate (which may still be hidden in a hand); with Guardian Angel it can only
    keep it."""

    def won_with(card: str) -> State:
        s = board(fresh(), {"germania": {"coalition": 4, "rome": 1}})
        s = set_f(s, "coalition", hand=(card,))
        s = set_f(s, "jews", hand=("tithe",), deck=tuple(c for c in s.factions["jews"].deck if c != card))
        s = attack(s, "coalition", "rome", "germania")
        return commit(
            s, "coalition", "rome", Commit(card="berserker-charge"), Commit(card="legio"), a_power=card
        )

    pf, ga = won_with("pharaohs-fate"), won_with("guardian-angel")
    co = seat(pf, "coalition")
    assert pf.combat.question == ga.combat.question == "pharaoh"
    assert g.to_act(pf)[co].text == g.to_act(ga)[co].text
    assert g.legal_actions(ga, co) == [Keep(), Pass()]
    with pytest.raises(IllegalActionError):
        act(ga, "coalition", Reveal())
    kept = act(ga, "coalition", Keep())
    assert kept.factions["coalition"].hand == ("guardian-angel",) and "Guardian" not in kept.last_combat.text
    # Pharaoh's Fate seen in the Jewish discard pile: the table knows it is Guardian Angel, no question
    known = board(fresh(), {"germania": {"coalition": 4, "rome": 1}})
    known = set_f(known, "coalition", hand=("guardian-angel",))
    jews = known.factions["jews"]
    known = set_f(
        known, "jews", discard=("pharaohs-fate",), deck=tuple(c for c in jews.deck if c != "pharaohs-fate")
    )
    known = attack(known, "coalition", "rome", "germania")
    known = commit(
        known,
        "coalition",
        "rome",
        Commit(card="berserker-charge"),
        Commit(card="legio"),
        a_power="guardian-angel",
    )
    assert known.combat is None or known.combat.stage == "plunder"
    assert known.factions["coalition"].hand == ("guardian-angel",)


def test_face_down_power_card_is_secret_from_the_other_seat() -> None:
    """Pharaoh's Fate: "Play face down" — the other seat learns that a Power Card was played face
    down, never which one unless it is revealed: not in the events, not in its view."""
    s = board(fresh(), {"jerusalem": {"rome": 5, "jews": 1}})
    s = set_f(s, "jews", hand=("pharaohs-fate",))
    s = attack(s, "rome", "jews", "jerusalem")
    rome = seat(s, "rome")
    assert s.combat.stage == "powers" and g.to_act(s)[seat(s, "jews")].kind == "secret"
    s, e1 = step(s, "jews", Prepare(power="pharaohs-fate"))
    assert "Jewish plays a Power Card face down" in seen_by(e1, rome) and "Pharaoh" not in seen_by(e1, rome)
    assert "pharaoh" not in g.view(s, rome).model_dump_json().lower()
    s, e2 = step(s, "jews", Commit(card="shofar"))
    view = g.view(s, rome).model_dump_json()
    assert "pharaoh" not in view.lower() and "shofar" not in view.lower()
    assert g.view(s, rome).combat_chosen == ("jews",)
    s, e3 = step(s, "rome", Commit(card="legio"))
    text = seen_by(e2 + e3, rome)
    assert "keeps a Power Card face down" in text and "Pharaoh" not in text
    assert "pharaoh" not in g.view(s, rome).model_dump_json().lower()
    s, e4 = step(s, "jews", Keep())
    assert "Pharaoh" not in seen_by(e4, rome) and "Pharaoh" not in s.last_combat.text


def test_power_cards_are_played_face_down_before_the_combat_cards_are_chosen() -> None:
    """Initiate Combat: "If either player wants to use a Power Card in the combat, they must play
    the card face down before either player chooses their Combat Card." (RULINGS.md R9): both sides
    answer first, in secret and at once (play <card>, or pass); the table is then told who played
    one face down, and only then are the Combat Cards chosen, knowing that. (The Power Card was
    chosen with the Combat Card, so the other side chose its card without knowing.)"""
    s = board(fresh(), {"syria": {"rome": 3, "christians": 2}})
    s = set_f(set_f(s, "rome", hand=("praetorian-guard",)), "christians", hand=("martyrdom",))
    s = attack(s, "rome", "christians", "syria")
    rs, cs = seat(s, "rome"), seat(s, "christians")
    assert s.combat.stage == "powers" and set(g.to_act(s)) == {rs, cs}
    assert {p.kind for p in g.to_act(s).values()} == {"secret"}
    assert g.legal_actions(s, rs) == [Pass(), Prepare(power="praetorian-guard")]
    assert g.parse_action(s, rs, "play Praetorian Guard") == Prepare(power="praetorian-guard")
    with pytest.raises(IllegalActionError, match="Before the Combat Cards are chosen"):
        act(s, "rome", g.parse_action(s, rs, "commit Legio"))
    s = act(s, "rome", Prepare(power="praetorian-guard"))
    assert s.combat.stage == "powers" and list(g.to_act(s)) == [cs]  # the other still answers
    s, events = step(s, "christians", Pass())
    assert "Before the Combat Cards: Rome plays a Power Card face down." in seen_by(events, cs)
    assert s.combat.stage == "choose" and s.factions["rome"].hand == ()
    assert g.legal_actions(s, rs) == [Commit(card=c) for c in g.combat_cards(s, "rome")] + [Pass()]
    s = commit(s, "rome", "christians", Commit(card="legio"), Commit(card="prayer"))
    # lowest wins: Rome 3 + 5 + 1 (Prayer) - 2 (Praetorian Guard, toward winning) = 7; Christians 2 + 2 = 4
    assert s.last_combat.attacker_value == 7 and "with Praetorian Guard" in s.last_combat.text


def test_conscription_adds_its_units_before_the_combat_cards_and_rome_names_them() -> None:
    """Conscription: "Add up to 2 units from your captured unit area to a territory (may exceed 6
    units) prior to selecting combat cards. ... Your total number of captured units will reduce the
    number you used." (RULINGS.md R16): Rome adds them before the Combat Cards, in the open, and
    names which captured units (``conscript 1 Christian, 1 Coalition``); they return to their own
    supplies. (They were added with the Combat Card, in secret, always from the largest groups.)"""
    s = board(fresh(), {"gallia": {"rome": 2, "jews": 2}})
    s = set_f(
        s, "rome", durable=("conscription",), captured={"coalition": 2, "christians": 1}, capture_track=3
    )
    s = set_f(s, "jews", hand=())
    s = attack(s, "rome", "jews", "gallia")
    rs = seat(s, "rome")
    offered = {g.format_action(s, a) for a in g.legal_actions(s, rs)}
    assert {"conscript 1 Christian", "conscript 2 Coalition", "conscript 1 Christian, 1 Coalition"} <= offered
    supply = s.factions["christians"].supply
    s, events = step(s, "rome", g.parse_action(s, rs, "conscript 1 christian, 1 coalition"))
    assert "Conscription adds 2 captured units (1 Christian, 1 Coalition) to Rome" in seen_by(
        events, seat(s, "jews")
    )
    assert s.factions["rome"].captured == {"coalition": 1} and s.factions["rome"].capture_track == 1
    assert s.factions["christians"].supply == supply + 1 and s.combat.stage == "choose"
    s = commit(s, "rome", "jews", Commit(card="legio"), Commit(card="shofar"))
    assert s.last_combat.attacker_value == 2 + 5 + 2


# --------------------------------------------------------------------------- Grace and Guardian Angel


def grace_fight(hand: tuple[str, ...] = (), power: str | None = None) -> State:
    """The Coalition attacks the Christians in Germania: Berserker Charge 2 + 6 - 1 = 7 against
    Prayer 2 + 2 = 4 — the Christians are losing; they have Grace face up."""
    s = board(fresh(), {"germania": {"christians": 2, "coalition": 2}})
    s = set_f(s, "christians", hand=hand, durable=("grace",))
    s = attack(s, "coalition", "christians", "germania")
    return commit(
        s, "coalition", "christians", Commit(card="berserker-charge"), Commit(card="prayer"), d_power=power
    )


def test_grace_choice_reverses_and_is_recorded() -> None:
    """Grace: "Once per turn you may do 1 of the following: ... 2) reverse a combat result ...
    You may not do the same thing two turns in a row." (RULINGS.md R9): the Christians choose;
    the option used is recorded, so it is not offered again this turn or the next."""
    s = grace_fight()
    assert s.combat.question == "grace" and g.legal_actions(s, seat(s, "christians")) == [UseGrace(), Pass()]
    assert g.to_act(s)[seat(s, "christians")].kind == "respond"
    used = act(s, "christians", UseGrace())
    assert used.last_combat.winner == "christians" and used.factions["christians"].grace_now == 2
    assert (
        units(used, "germania", "coalition") == 0 and "Grace: the Christians reverse" in used.last_combat.text
    )
    declined = act(s, "christians", Pass())
    assert declined.last_combat.winner == "coalition" and declined.factions["christians"].grace_now == 0
    assert used.conversion is not None  # the Christians won: they may convert (RULINGS.md R10)
    used = act(used, "christians", g.legal_actions(used, seat(used, "christians"))[0])
    # the Christians' next turn: option 2 was used last turn
    ctx = _Ctx(turn_of(used, "christians", "start"), Rng(1, 1))
    g._begin_turn(ctx)
    nxt = ctx.s
    assert nxt.factions["christians"].grace_last == 2
    nxt = board(nxt, {"germania": {"christians": 2, "coalition": 2}})
    nxt = set_f(set_f(nxt, "coalition", combat_used=()), "christians", combat_used=())
    nxt = attack(nxt, "christians", "coalition", "germania")
    nxt = commit(nxt, "christians", "coalition", Commit(card="prayer"), Commit(card="berserker-charge"))
    assert nxt.combat is None or nxt.combat.stage == "plunder"
    assert nxt.last_combat.winner == "coalition" and "Grace" not in nxt.last_combat.text


def test_guardian_angel_no_losses_on_the_final_loss() -> None:
    """Guardian Angel: "reveal this card only if you lose. You suffer no losses from combat."
    (RULINGS.md R9): judged on the final result, after Grace is declined."""
    s = grace_fight(hand=("guardian-angel",), power="guardian-angel")
    s = act(s, "christians", Pass())
    assert s.last_combat.winner == "coalition" and units(s, "germania", "christians") == 2
    assert "guardian-angel" in s.factions["christians"].discard
    assert "Guardian Angel is revealed" in s.last_combat.text


def test_guardian_angel_returned_when_grace_turns_the_result() -> None:
    """Guardian Angel: "If you win the combat, return this card to your hand." — judged on the
    final result: a loss reversed by Grace is a win (RULINGS.md R9)."""
    s = grace_fight(hand=("guardian-angel",), power="guardian-angel")
    s = act(s, "christians", UseGrace())
    assert s.last_combat.winner == "christians"
    assert s.factions["christians"].hand == ("guardian-angel",)
    assert "Guardian Angel" not in s.last_combat.text


def test_guardian_angel_returned_to_the_attacker_allows_another_card() -> None:
    """Guardian Angel: "If the card is returned, you may play a different Power Card this turn."."""
    s = board(fresh(), {"germania": {"christians": 4, "coalition": 1}})
    s = set_f(s, "christians", hand=("guardian-angel",))
    s = attack(s, "christians", "coalition", "germania")
    s = commit(
        s,
        "christians",
        "coalition",
        Commit(card="stephens-witness"),
        Commit(card="feigned-retreat"),
        a_power="guardian-angel",
    )
    assert s.last_combat.winner == "christians" and s.factions["christians"].hand == ("guardian-angel",)
    assert s.power_played == 0


# --------------------------------------------------------------------------- Crucify


def crucify_fight() -> State:
    """The Coalition beats Rome in Gallia (Berserker Charge 3 + 6 = 9 against Pax Deorum
    2 + 1 + 2 = 5); Rome holds 1 captured Christian and 2 captured Jewish units."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 3}})
    s = set_f(s, "rome", durable=("crucify",), captured={"christians": 1, "jews": 2}, capture_track=3)
    s = attack(s, "coalition", "rome", "gallia")
    return commit(s, "coalition", "rome", Commit(card="berserker-charge"), Commit(card="pax-deorum"))


def test_crucify_rome_chooses_the_faction() -> None:
    """Crucify: "If you lose units in combat, you may return 1 captured unit (any Faction) to
    their supply instead of removing 1 Roman unit. Your Captured Units are reduced by 1."
    (RULINGS.md R16): Rome names the faction."""
    s = crucify_fight()
    assert s.combat.question == "crucify"
    assert g.legal_actions(s, seat(s, "rome")) == [
        Crucify(faction="christians"),
        Crucify(faction="jews"),
        Pass(),
    ]
    assert "Christian 1, Jewish 2" in g.to_act(s)[seat(s, "rome")].text
    jews = s.factions["jews"].supply
    t = act(s, "rome", Crucify(faction="jews"))
    assert units(t, "gallia", "rome") == 1
    assert (
        t.factions["rome"].captured == {"christians": 1, "jews": 1} and t.factions["rome"].capture_track == 2
    )
    assert t.factions["jews"].supply == jews + 1
    assert "Crucify: a captured Jewish unit returns" in t.last_combat.text


def test_crucify_declined_keeps_the_capture_track() -> None:
    """Crucify: "you MAY return 1 captured unit" (RULINGS.md R16): declined, Rome loses every
    unit and the capture track stays."""
    s = act(crucify_fight(), "rome", Pass())
    assert units(s, "gallia", "rome") == 0
    assert (
        s.factions["rome"].captured == {"christians": 1, "jews": 2} and s.factions["rome"].capture_track == 3
    )
    assert "Rome does not use Crucify" in s.last_combat.text


def test_crucify_when_the_christians_convert() -> None:
    """Crucify applies whenever Rome loses units, also to a Christian win: one Roman unit fewer
    is removed and converted (RULINGS.md R10, R16)."""
    s = board(fresh(), {"syria": {"rome": 2, "christians": 1}})
    s = set_f(s, "rome", durable=("crucify",), captured={"coalition": 1}, capture_track=1)
    s = attack(s, "rome", "christians", "syria")
    s = commit(s, "rome", "christians", Commit(card="legio"), Commit(card="turn-the-other-cheek"))
    assert s.combat.question == "crucify"
    s = act(s, "rome", Crucify(faction="coalition"))
    assert units(s, "syria", "rome") == 1 and s.conversion is not None and s.conversion.count == 1
    s = act(s, "christians", Convert(sources=(("supply", 1),)))
    assert units(s, "syria", "rome") == 1 and units(s, "syria", "christians") == 2
    assert s.factions["christians"].converted == 1 and s.factions["rome"].capture_track == 0


def test_crucify_not_asked_without_captured_units_or_losses() -> None:
    """RULINGS.md R16: only a real choice is asked — not when Rome has no captured unit, nor
    when Rome wins."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 3}})
    s = set_f(s, "rome", durable=("crucify",), captured={}, capture_track=0)
    s = attack(s, "coalition", "rome", "gallia")
    s = commit(s, "coalition", "rome", Commit(card="berserker-charge"), Commit(card="pax-deorum"))
    assert s.combat is None or s.combat.stage == "plunder"
    w = board(fresh(), {"gallia": {"rome": 5, "coalition": 1}})
    w = set_f(w, "rome", durable=("crucify",), captured={"jews": 1}, capture_track=1)
    w = attack(w, "coalition", "rome", "gallia")
    w = commit(w, "coalition", "rome", Commit(card="feigned-retreat"), Commit(card="legio"))
    assert w.last_combat.winner == "rome" and w.combat is None


# --------------------------------------------------------------------------- passing, notation, errors


def test_pass_names_the_card_played() -> None:
    """RULINGS.md R9: a side that passes its secret choice plays its first unused Combat Card,
    and the note says which."""
    s = board(fresh(), {"gallia": {"rome": 2, "coalition": 2}})
    s = attack(s, "coalition", "rome", "gallia")
    s, events = step(s, "coalition", Pass())
    assert "No choice made: Coalition plays Berserker Charge." in seen_by(events, seat(s, "rome"))


def test_decisions_in_notation_and_bad_input() -> None:
    """The notation of the combat decisions reads back; wrong answers say what is legal."""
    s = elder_fight()
    cs = seat(s, "christians")
    for a in g.legal_actions(s, cs):
        assert g.parse_action(s, cs, g.format_action(s, a)) == a
    assert g.parse_action(s, cs, "elder theirs") == Elder(choice="theirs")
    with pytest.raises(InvalidNotationError, match="elder mine"):
        g.parse_action(s, cs, "elder sideways")
    with pytest.raises(IllegalActionError, match="elder mine"):
        act(s, "christians", Reveal())
    p = pharaoh_attack([1])
    with pytest.raises(IllegalActionError, match="Pharaoh's Fate: reveal"):
        act(p, "jews", Elder(choice="mine"))
    assert g.parse_action(p, seat(p, "jews"), "reveal") == Reveal()
    c = crucify_fight()
    rs = seat(c, "rome")
    assert g.parse_action(c, rs, "crucify jewish") == Crucify(faction="jews")
    assert g.parse_action(c, rs, "crucify chr") == Crucify(faction="christians")
    with pytest.raises(IllegalActionError, match="crucify <faction>: Christian, Jewish"):
        act(c, "rome", Crucify(faction="coalition"))
    with pytest.raises(InvalidNotationError, match=r"^crucify which faction\? legal: crucify Christian, crucify Jewish\.$"):
        g.parse_action(c, rs, "crucify")
    main = dice(turn_of(fresh(), "rome"), "rome", [3])
    with pytest.raises(
        IllegalActionError, match="'reveal' is not possible now: the question now is .Main Phase"
    ):
        g.parse_action(main, seat(main, "rome"), "reveal")


def test_agent_answers_the_decisions() -> None:
    """The heuristic player: Elder -1 where it helps (the highest wins here: theirs), reveal
    Pharaoh's Fate on a loss and keep it on a win, use Grace (asked on a loss), Crucify the largest captured
    group unless Rome's capture track is needed for a face-up objective (RULINGS.md R9, R16)."""
    from games.soul_of_the_empire.agent import HeuristicAgent

    ai = HeuristicAgent(1)
    s = elder_fight()
    assert ai.choose(g, s, seat(s, "christians")) == Elder(choice="theirs")
    p = pharaoh_attack([1])
    assert ai.choose(g, p, seat(p, "jews")) == Reveal()
    won = board(fresh(), {"jerusalem": {"rome": 1, "jews": 5}})
    won = attack(set_f(won, "jews", hand=("pharaohs-fate",)), "rome", "jews", "jerusalem")
    won = commit(
        won, "rome", "jews", Commit(card="pax-deorum"), Commit(card="shofar"), d_power="pharaohs-fate"
    )
    assert ai.choose(g, won, seat(won, "jews")) == Keep()  # winning: keep it
    gr = grace_fight()
    assert ai.choose(g, gr, seat(gr, "christians")) == UseGrace()
    c = crucify_fight()
    assert ai.choose(g, c, seat(c, "rome")) == Crucify(faction="jews")
    # Bread and Circuses: Rome (1, Start Phase): 6+ captured units — the track is needed
    needed = c.model_copy(update={"objectives": ("bread-and-circuses",)})
    assert g.data.objectives["bread-and-circuses"].for_faction("rome").kind == "captured"
    assert ai.choose(g, needed, seat(c, "rome")) == Pass()


def test_combat_buttons_show_the_combat_cards_value() -> None:
    """A Combat Card's button reads its number ("Combat Cards": a card has a number and maybe
    an effect; data/combat.toml): during a combat the game notes each card's value, and the
    choices show it after the card's name without changing where a click leads."""
    from games.core.choices import ChoiceTree, noted

    s = fresh()
    assert GAME.option_notes(s, 0) == {}  # no combat, nothing to note
    card = next(iter(GAME.data.combat.values()))
    notes = {card.name: str(card.number)}
    tree = ChoiceTree([f"commit {card.name}", f"commit {card.name} with Grace", "pass"])
    step = noted(tree.step(), notes)
    labels = [o.label for o in step.options]
    assert any(f"{card.name} ({card.number})" in label for label in labels), labels
    assert [o.action for o in step.options] == [o.action for o in tree.step().options]


def test_grace_may_reverse_a_won_combat_too() -> None:
    """Grace: "Once per turn you may do 1 of the following: ... 2) reverse a combat result" — any
    result of a combat its holder fights, won or lost (RULINGS.md R9): the Christians, winning,
    are asked; pass keeps the win, grace turns it into a loss."""
    s = board(fresh(), {"germania": {"christians": 4, "coalition": 1}})
    s = set_f(s, "christians", durable=("grace",))
    s = attack(s, "christians", "coalition", "germania")
    s = commit(s, "christians", "coalition", Commit(card="stephens-witness"), Commit(card="feigned-retreat"))
    assert s.combat is not None and s.combat.question == "grace" and s.combat.winner == "christians"
    assert g.legal_actions(s, seat(s, "christians")) == [UseGrace(), Pass()]
    from games.soul_of_the_empire.agent import HeuristicAgent

    assert HeuristicAgent(1).choose(g, s, seat(s, "christians")) == Pass()  # it keeps a win
    kept = act(s, "christians", Pass())
    assert kept.last_combat.winner == "christians" and kept.factions["christians"].grace_now == 0
    reversed_ = act(s, "christians", UseGrace())
    assert reversed_.last_combat.winner == "coalition" and reversed_.factions["christians"].grace_now == 2
