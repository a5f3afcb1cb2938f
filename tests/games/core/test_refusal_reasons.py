"""Every refusal says why (issue item "say why an option is missing"): over random positions
of each game, an action well formed in the game's notation (taken from other positions of the
same game) that is not legal now is refused with its cause: the rule that forbids it or the
step asked now, never a bare "not legal now" line."""

from __future__ import annotations

import itertools
import random
import re

import pytest

import games  # noqa: F401  (registers the games)
from games.core import AmbiguousActionError, GameError, NotYourTurnError, get_game
from games.core.refusal import RULES_NOW, is_bare
from games.core.replay import apply_at, start
from games.core.rng import Rng
from tests.random_walk import random_walk

GAMES = ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"]


def refusals(game_id: str, seed: int, steps: int = 120, tries: int = 6) -> list[tuple[str, str, str]]:
    """(prompt, typed, refusal) for notations of earlier positions tried at later ones."""
    g = get_game(game_id)
    players = min(max(g.min_players, 3), g.max_players)
    pool: list[str] = []
    out = []
    for p in random_walk(game_id, players, seed, steps, 200):
        pool += p.rnd.sample(p.texts, min(4, len(p.texts)))
        for typed in p.rnd.sample(pool, min(tries, len(pool))):
            if typed in p.texts:
                continue
            try:
                g.apply(p.state, p.seat, g.parse_action(p.state, p.seat, typed), Rng(seed, p.step))
            except (NotYourTurnError, AmbiguousActionError):
                continue
            except GameError as e:
                out.append((p.asked[p.seat].text, typed, e.message))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_no_refusal_is_a_bare_not_legal_now(game_id: str) -> None:
    seen = [r for seed in (1, 2) for r in refusals(game_id, seed)]
    assert len(seen) > 50, "the positions tried give refusals to check"
    bare = [r for r in seen if is_bare(r[2])]
    assert not bare, "\n".join(f"at {p!r}, {t!r}: {m}" for p, t, m in bare[:10])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_refusal_points_to_the_steps_rule_text_in_one_clause_without_nested_brackets(game_id: str) -> None:
    """The pointer to the step's rule text is one clause (``RULES_NOW``, which a host words for
    its adapter), never inside another bracket."""
    seen = [r for r in refusals(game_id, 1)]
    pointing = [m for _, _, m in seen if RULES_NOW in m]
    assert pointing, "some refusal names the step asked now"
    nested = [m for _, _, m in seen if re.search(r"\([^()]*\(", m) or "in the terminal" in m]
    assert not nested, "\n".join(nested[:5])


def test_a_barbarian_hordes_card_not_held_is_refused_as_not_in_hand() -> None:
    """`play Famine` when Famine is a card of the deck but not in the player's hand says so,
    rather than that no card is called Famine."""
    g = get_game("barbarian-hordes")
    state = start(g, [0, 1, 2], g.Options(), 3).state
    rnd = random.Random(3)
    for step in range(1, 300):
        asked = g.to_act(state)
        seat = rnd.choice(sorted(asked))
        if asked[seat].text.startswith("Event Phase"):
            hand = set(state.players[seat].hand)
            card = next(c for c in g.data.cards.values() if c.id not in hand and c.name != "Intrigue")
            try:
                g.parse_action(state, seat, f"play {card.display}")
            except GameError as e:
                assert e.message.startswith(f"{card.display} is not in your hand (your hand: "), e.message
                return
            raise AssertionError("a card not held was accepted")
        legal = list(itertools.islice(g.legal_actions(state, seat), 200))
        state = apply_at(g, state, seat, rnd.choice(legal), 3, step).state
    raise AssertionError("no Event Phase reached")


def test_a_roman_war_card_refused_names_its_cause() -> None:
    """Roman War, Cost Zone phase ("Play up to 4 cards face-down from your hand to your Cost
    Zone"): a card not held is refused as not in the hand, not as a missing choice."""
    seen = [m for _, t, m in refusals("roman-war", 1, steps=200, tries=10) if t.startswith("cost ")]
    assert any(m.endswith("is not in your hand; legal now: " + m.split("legal now: ", 1)[1]) for m in seen), seen[:5]


def test_a_barbarian_hordes_nation_not_offered_at_the_pick_says_why() -> None:
    """The Nations: "Each Player picks one nation, starting with the Primary nations, then
    secondary...": `pick Vandals` (Secondary) while Primary nations are left is refused with that
    sentence, and a nation already in the game is refused as such, not as unknown."""
    from games.core import IllegalActionError, InvalidNotationError

    g = get_game("barbarian-hordes")
    s = start(g, [0, 1, 2, 3], g.Options(), 11).state
    seat = next(iter(g.to_act(s)))
    with pytest.raises(IllegalActionError, match=r"The Vandals cannot be picked yet: .*starting with the Primary"):
        g.parse_action(s, seat, "pick Vandals")
    a = g.legal_actions(s, seat)[0]
    s = apply_at(g, s, seat, a, 11, 1).state
    taken = g.data.nation(a.nation).name
    nxt = next(iter(g.to_act(s)))
    with pytest.raises(IllegalActionError, match=rf"The {taken} are already in the game; choose from"):
        g.parse_action(s, nxt, f"pick {taken}")
    with pytest.raises(InvalidNotationError, match="No nation called 'zz' here"):
        g.parse_action(s, nxt, "pick zz")


def test_a_barbarian_hordes_card_played_in_a_war_is_refused_alike_spelt_well_or_not() -> None:
    """CONQUEST PHASE: while a war's commitments are made, cards are committed (fight, support)
    or block (P, I: Card List Notation), not played; 'play Insurrection' and the misspelt
    'play insurection' get the same refusal: the question asked and what is legal now."""
    from tests.bh_helpers import act, make_state

    game = get_game("barbarian-hordes")
    s = make_state(
        ["Huns", "Visigoths", "Ostrogoths"], phase="conquest", active=0, conquests_left=2,
        hands=[[], ["Insurrection", "Cavalry", "Peace"], []],
    )  # fmt: skip
    s = act(s, 0, "attack Visigoths")
    answers = []
    for text in ("play insurection", "play Insurrection", "play Peace"):
        with pytest.raises(GameError) as refused:
            game.parse_action(s, 1, text)
        answers.append(refused.value.message)
    for message in answers:
        assert message.startswith("'play' is not possible now: the question now is")
        assert "block with Peace" in message and "fight with Cavalry" in message


def _soul_end_phase() -> tuple[object, int]:
    game = get_game("soul-of-the-empire")
    from games.core.agents import make_agent

    s = start(game, [0, 1, 2], game.Options(), 7).state
    agents = [make_agent(game, "random", x) for x in range(3)]
    pick = random.Random(7)
    for step in range(1, 3000):
        for seat, prompt in sorted(game.to_act(s).items()):
            if "End Phase" in prompt.text:
                return s, seat
        seat = pick.choice(sorted(game.to_act(s)))
        s = apply_at(game, s, seat, agents[seat].choose(game, s, seat), 7, step).state
    raise AssertionError("no End Phase reached")


def test_soul_move_in_the_end_phase_is_refused_for_the_phase_not_for_its_die() -> None:
    """END PHASE of Soul of the Empire: only End Phase Power Cards or done; a move is refused
    because moving is not part of that phase, whatever die it names (not "No 9 in your Dice
    Sequence"), and the legal list does not repeat itself ("done (e.g. done)")."""
    game = get_game("soul-of-the-empire")
    s, seat = _soul_end_phase()
    answers = []
    for text in ("move 6: 99 Rome-Italia", "move 9: 2 Rome-Italia"):
        with pytest.raises(GameError) as refused:
            game.parse_action(s, seat, text)
        answers.append(refused.value.message)
    assert answers[0] == answers[1]
    assert answers[0].startswith("'move' is not possible now: the question now is")
    assert "Dice Sequence" not in answers[0] and "(e.g. done)" not in answers[0]
