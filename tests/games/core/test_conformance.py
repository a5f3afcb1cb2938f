"""Conformance of every registered game to the contract (ARCHITECTURE.md, "The game contract").

In the spirit of OpenSpiel's basic tests: random legal playouts to the end over
many seeds, player counts and agents, checking at every step that

- every prompted seat has a legal action, and every sampled legal action applies;
- ``apply`` never mutates its input state;
- the State round-trips through JSON, and so does every sampled action;
- ``parse_action(s, seat, format_action(s, a)) == a`` for the sampled actions;
- the spectator view does not change when the hidden parts of the state are
  reshuffled, and a seat's view (one seat sampled per step, every seat at the end)
  does not change when everything hidden from that seat is reshuffled (each game
  registers its own ``reshuffle hidden`` function here);
- no view and no event contains the session seed;
- the game's conservation invariants hold (``games.core.invariants``: every card in
  exactly one place, units, coins, votes and dice counted), after setup and after
  every step;
- events with ``visible_to`` are shown only to those seats;

and at the end that replaying the action log from the seed reproduces the final
state and the events exactly.

Large action spaces (war commitments) are sampled by index, never iterated.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from games.core import Event, Game, GameError, Rng, all_games, apply_at, replay, start, visible_events
from games.core.agents import make_agent
from games.core.invariants import check_invariants, invariants_of
from tests.games.roman_war.test_roman_war_helpers import reshuffle_roman_war

# A large, distinctive 63-bit base seed: its decimal digits must never show up in a view.
SEED_BASE = 7_319_024_586_113_957_000
SEEDS_PER_GAME = 54
STEP_CAP = 20_000  # a playout that reaches this is a failure (the game does not end)
SAMPLED_ACTIONS = 3  # legal actions checked per step besides the one played


def production_games() -> list[Game]:
    """Every registered game shipped in ``games/`` (test-only games such as the toy
    game of the storage tests register themselves too when imported; they are not
    part of the product and not held to it here)."""
    return [g for g in all_games() if type(g).__module__.startswith("games.")]


# --------------------------------------------------------------------------- hidden parts

Reshuffle = Callable[[Any, Any, random.Random, "int | None"], Any]
"""(game, state, rnd, keep) -> a state whose hidden parts are redistributed at random.
``keep`` is the seat whose private information stays as it is (None = spectator)."""


def reshuffle_barbarian_hordes(game: Any, s: Any, rnd: random.Random, keep: int | None) -> Any:
    """Permute the deck and redistribute the cards among the hands (each hand keeps its
    size; ``keep``'s hand stays). While war commitments are secret, the committed
    cards, Army Tokens and sides of the other seats are reshuffled too."""
    pool = list(s.deck)
    for x, p in enumerate(s.players):
        if x != keep:
            pool += p.hand
    rnd.shuffle(pool)
    deck, pool = pool[: len(s.deck)], pool[len(s.deck) :]
    players = []
    for x, p in enumerate(s.players):
        if x == keep:
            players.append(p)
            continue
        hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
        players.append(p.model_copy(update={"hand": tuple(hand)}))
    update: dict[str, Any] = {"deck": tuple(deck), "players": tuple(players)}
    war = s.war
    if war is not None and war.stage == "commit" and war.contributions:
        all_cards = list(game.data.cards)
        contributions = []
        for c in war.contributions:
            if c.seat == keep:
                contributions.append(c)
                continue
            contributions.append(
                c.model_copy(
                    update={
                        "side": rnd.choice([None, war.attacker, war.defender]),
                        "cards": tuple(rnd.sample(all_cards, len(c.cards) + rnd.randrange(2))),
                        "armies": rnd.randrange(12),
                        "sacrifice": rnd.random() < 0.5,
                        "block": rnd.choice([None, *all_cards]),
                    }
                )
            )
        update["war"] = war.model_copy(update={"contributions": tuple(contributions)})
    return s.model_copy(update=update)


def reshuffle_credo(game: Any, s: Any, rnd: random.Random, keep: int | None) -> Any:
    """Permute the Event/Article deck and the Church Cards box and redistribute the
    Event/Article cards among the hands (each hand keeps its size; ``keep``'s hand
    stays). Church cards and mats are public. The drawn card being handled stays with
    the drawer unless it is a hidden Article: then it is swapped into the pool too."""
    pool = list(s.event_deck)
    for x, p in enumerate(s.players):
        if x != keep:
            pool += p.hand
    hidden_drawn = s.drawn is not None and s.stage == "article" and s.active != keep
    if hidden_drawn:
        pool.append(s.drawn)
    rnd.shuffle(pool)
    drawn = s.drawn
    if hidden_drawn:
        articles = [c for c in pool if c in game.data.articles]
        drawn = rnd.choice(articles)
        pool.remove(drawn)
    deck, pool = pool[: len(s.event_deck)], pool[len(s.event_deck) :]
    players = []
    for x, p in enumerate(s.players):
        if x == keep:
            players.append(p)
            continue
        hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
        players.append(p.model_copy(update={"hand": tuple(hand)}))
    church_deck = list(s.church_deck)
    rnd.shuffle(church_deck)
    return s.model_copy(
        update={"event_deck": tuple(deck), "players": tuple(players), "church_deck": tuple(church_deck), "drawn": drawn}
    )

def reshuffle_soul_of_the_empire(game: Any, s: Any, rnd: random.Random, keep: int | None) -> Any:
    """Redistribute each faction's Power Cards between its hand and its deck (hand sizes
    kept) for the factions ``keep`` does not control, shuffle every deck and the
    Objective Card deck, swap the Coalition's salvaged cards with cards of their decks,
    and while Combat Cards are face down change the other side's choice to another
    unused card."""
    factions = dict(s.factions)
    for fid, f in s.factions.items():
        if fid in ("gray", "coalition"):
            continue
        mine = f.seat == keep
        pool = list(f.deck) + ([] if mine else list(f.hand))
        rnd.shuffle(pool)
        if mine:
            factions[fid] = f.model_copy(update={"deck": tuple(pool)})
        else:
            n = len(f.hand)
            factions[fid] = f.model_copy(update={"hand": tuple(pool[:n]), "deck": tuple(pool[n:])})
    co = factions.get("coalition")
    if co is not None and co.seat != keep and co.hand:
        hand = []
        for c in co.hand:
            origin = game.data.card(c).faction
            deck = list(factions[origin].deck)
            if deck:
                j = rnd.randrange(len(deck))
                deck[j], c = c, deck[j]
                factions[origin] = factions[origin].model_copy(update={"deck": tuple(deck)})
            hand.append(c)
        factions["coalition"] = co.model_copy(update={"hand": tuple(hand)})
    update: dict[str, Any] = {
        "factions": factions,
        "objective_deck": tuple(rnd.sample(s.objective_deck, len(s.objective_deck))),
    }
    c = s.combat
    if c is not None and c.stage == "choose" and c.choices:
        choices = {}
        for side, commit in c.choices.items():
            if game.seat_of(s, side) == keep:
                choices[side] = commit
            else:
                choices[side] = commit.model_copy(update={"card": rnd.choice(game.combat_cards(s, side))})
        update["combat"] = c.model_copy(update={"choices": choices})
    return s.model_copy(update=update)


def reshuffle_promised_land(game: Any, s: Any, rnd: random.Random, keep: int | None) -> Any:
    """Redistribute the Kingdom cards not yet called among the other seats' hands and the
    current Book's unused cards (hand sizes kept), shuffle the later Books' decks and the
    Artefact bag, and redistribute the other seats' coins (each metal's total kept, so the
    supply is unchanged). Once the game is over nothing is hidden."""
    if s.phase == "over":
        return s
    players = list(s.players)
    decks = [list(d) for d in s.decks]
    for side_i, side in enumerate(("heathen", "hebrew")):
        di = (s.book - 1) * 2 + side_i
        others = [x for x, p in enumerate(players) if p.side == side and x != keep]
        pool = [c for x in others for c in players[x].hand] + [c for c in decks[di] if c > s.time]
        rest = [c for c in decks[di] if c <= s.time]
        rnd.shuffle(pool)
        for x in others:
            n = len(players[x].hand)
            hand, pool = pool[:n], pool[n:]
            players[x] = players[x].model_copy(update={"hand": tuple(sorted(hand))})
        decks[di] = rest + pool
    for di in range(s.book * 2, len(decks)):
        rnd.shuffle(decks[di])
    others = [x for x in range(len(players)) if x != keep]
    if others:
        split: dict[int, list[int]] = {x: [0, 0, 0] for x in others}
        for metal in range(3):
            for _ in range(sum(players[x].coins[metal] for x in others)):
                split[rnd.choice(others)][metal] += 1
        for x in others:
            players[x] = players[x].model_copy(update={"coins": tuple(split[x])})
    bag = list(s.bag)
    rnd.shuffle(bag)
    return s.model_copy(
        update={"players": tuple(players), "decks": tuple(tuple(d) for d in decks), "bag": tuple(bag)}
    )


RESHUFFLE_HIDDEN: dict[str, Reshuffle] = {
    "roman-war": reshuffle_roman_war,
    "barbarian-hordes": reshuffle_barbarian_hordes,
    "promised-land": reshuffle_promised_land,
    "soul-of-the-empire": reshuffle_soul_of_the_empire,
    "credo": reshuffle_credo,
}


def _bh_options(game: Any, players: int, i: int) -> Any:
    """Barbarian Hordes: at 3 seats, every other game is the THREE PLAYER VARIANT; one
    game in six ends by the round limit house rule (RULINGS.md R16)."""
    fields: dict[str, Any] = {}
    if players == 3 and (i // 11) % 2 == 0:
        fields["variant"] = "three-player"
    if i % 6 == 5:
        fields["round_limit"] = 1 + (i // 6) % 4
    return game.Options(**fields)


def _soe_options(game: Any, players: int, i: int) -> Any:
    """Soul of the Empire: vary the factions (3 players: each trio with Rome; 2 players:
    both pairings) and end every game by round 20 at the latest (RULINGS.md R20)."""
    fields: dict[str, Any] = {"round_limit": 20 if i % 4 else 3 + i % 5}
    if players == 3:
        fields["factions"] = (
            ("Rome", "Coalition", "Jewish"),
            ("Rome", "Jewish", "Christian"),
            (None, "Christian", "Coalition"),
        )[(i // 3) % 3]
    if players == 2 and (i // 3) % 2:
        fields["factions"] = ("Coalition+Jewish", None)
    return game.Options(**fields)


def _credo_options(game: Any, players: int, i: int) -> Any:
    """Credo: one game in three is played to its end; the others end by the round
    limit house rule, and half of those skip Churches with no card in hand in
    response windows (``ask_all`` off) (RULINGS.md R19, R21)."""
    fields: dict[str, Any] = {}
    if i % 3:
        fields["round_limit"] = 3 + i % 6
    if i % 3 == 2:
        fields["ask_all"] = False
    return game.Options(**fields)


def _rw_options(game: Any, players: int, i: int) -> Any:
    """Roman War: every sixth game a duel (2+ seats), one in six without level abilities,
    solo games with the C2 Target-Change fee, and one in twelve with the manual-adjust
    house rule."""
    fields: dict[str, Any] = {}
    if i % 6 == 5 and players >= 2:
        fields["mode"] = "duel"
    if i % 6 == 4:
        fields["level_abilities"] = False
    if i % 6 == 3 and players == 1:
        fields["fee"] = 2
    if i % 12 == 2:
        fields["manual"] = True
    return game.Options(**fields)


def _pl_options(game: Any, players: int, i: int) -> Any:
    """Promised Land: one game in four with the 'No Dice' combat system."""
    return game.Options(no_dice=i % 4 == 3)


OPTIONS: dict[str, Callable[[Any, int, int], Any]] = {
    "roman-war": _rw_options,
    "barbarian-hordes": _bh_options,
    "promised-land": _pl_options,
    "soul-of-the-empire": _soe_options,
    "credo": _credo_options,
}
"""game id -> (game, players, case index) -> Options; games not listed use their defaults."""

PRIVATE_EVENT_KINDS: dict[str, set[str]] = {
    # events that carry card names of a hand must never be public
    "roman-war": {"cards_drawn"},
    "barbarian-hordes": {"cards_received", "hand_seen"},
    "promised-land": {"private-note"},
    "soul-of-the-empire": {"cards_drawn"},
    "credo": {"cards_received"},
}


# --------------------------------------------------------------------------- cases


def cases() -> list[Any]:
    out = []
    for game in production_games():
        span = game.max_players - game.min_players + 1
        for i in range(SEEDS_PER_GAME):
            players = game.min_players + i % span
            agents = ("heuristic", "random", "mixed")[(i // span + i) % 3]
            seed = SEED_BASE + 7919 * i
            options = OPTIONS.get(game.id, lambda g, n, i: g.Options())(game, players, i)
            extra = "".join(f"-{k}={v}" for k, v in options.model_dump(exclude_defaults=True).items())
            out.append(
                pytest.param(
                    game.id, players, agents, seed, options, id=f"{game.id}-{players}p-{agents}-{i}{extra}"
                )
            )
    return out


def test_every_game_is_covered() -> None:
    games = production_games()
    assert games, "no game is registered"
    for game in games:
        assert game.id in RESHUFFLE_HIDDEN, f"{game.id}: register a reshuffle-hidden function in this module"
        assert invariants_of(game.id) is not None, f"{game.id}: register its conservation invariants"
        assert game.min_players <= game.max_players


# --------------------------------------------------------------------------- checks


def _json(model: BaseModel) -> str:
    return model.model_dump_json()


def _check_events(game: Any, events: tuple[Event, ...] | list[Event], seats: list[int], seed: int) -> None:
    private = PRIVATE_EVENT_KINDS.get(game.id, set())
    for e in events:
        assert isinstance(e, Event)
        text = _json(e)
        assert str(seed) not in text, f"event {e!r} contains the seed"
        if getattr(e, "kind", None) in private:
            assert e.visible_to is not None, f"{e.kind} must be private: {e!r}"
        if e.visible_to is not None:
            assert e.visible_to, f"visible_to is empty (visible to nobody): {e!r}"
            assert set(e.visible_to) <= set(seats), f"visible_to names unknown seats: {e!r}"
            assert not e.visible(None), "a private event is shown to spectators"
        for viewer in [None, *seats]:
            shown = e in visible_events([e], viewer)
            allowed = e.visible_to is None or viewer in e.visible_to
            assert shown == allowed, f"event {e!r} shown to {viewer}: {shown}, allowed: {allowed}"


def _check_views(game: Any, s: Any, seed: int, rnd: random.Random, viewers: list[int | None]) -> None:
    reshuffle = RESHUFFLE_HIDDEN[game.id]
    for viewer in viewers:
        v = game.view(s, viewer)
        text = _json(v)
        assert str(seed) not in text, f"the view for {viewer} contains the seed"
        assert hex(seed)[2:] not in text.lower(), f"the view for {viewer} contains the seed in hex"
        dump = v.model_dump(mode="json")
        other = game.view(reshuffle(game, s, rnd, viewer), viewer)
        assert other.model_dump(mode="json") == dump, (
            f"the view for {'the spectator' if viewer is None else f'seat {viewer}'} changes when "
            f"hidden parts are reshuffled (phase {getattr(s, 'phase', '?')})"
        )


def _check_invariants(game: Any, s: Any, step: int) -> None:
    problems = check_invariants(game, s)
    assert not problems, f"step {step}: conservation invariants broken: " + "; ".join(problems)


def _sample_indices(n: int, k: int, rnd: random.Random) -> list[int]:
    if n <= k:
        return list(range(n))
    return sorted(rnd.sample(range(n), k))


def _check_action(game: Any, s: Any, seat: int, a: Any, seed: int, step: int) -> None:
    # JSON round trip of the action
    assert game.action_from_json(a.model_dump(mode="json")) == a
    # notation round trip
    text = game.format_action(s, a)
    assert isinstance(text, str) and text.strip()
    parsed = game.parse_action(s, seat, text)
    assert parsed == a, f"parse_action({text!r}) gave {parsed!r}, not {a!r}"
    # it applies
    st = apply_at(game, s, seat, a, seed, step)
    assert st.state is not s


def playout(game_id: str, players: int, agents: str, seed: int, options: Any = None) -> None:
    game = next(g for g in production_games() if g.id == game_id)
    rnd = random.Random(seed)
    seats = list(range(players))
    options = options if options is not None else game.Options()
    kinds = [agents if agents != "mixed" else rnd.choice(["heuristic", "random"]) for _ in seats]
    ags = [make_agent(game, kinds[x], seed + x) for x in seats]

    step0 = start(game, seats, options, seed)
    s = step0.state
    _check_invariants(game, s, 0)
    all_events: list[Event] = list(step0.events)
    _check_events(game, step0.events, seats, seed)
    log: list[tuple[int, Any]] = []
    step = 0
    while game.outcome(s) is None:
        assert step < STEP_CAP, f"no end after {STEP_CAP} actions (seed {seed}, {players} players)"
        prompts = game.to_act(s)
        assert prompts, f"step {step}: nobody is prompted but the game is not over"
        for p in prompts.values():
            assert p.kind in ("turn", "respond", "secret")
        for x in prompts:
            assert x in seats
        seat = rnd.choice(sorted(prompts))
        step += 1
        before = s.model_dump()
        dumped = s.model_dump(mode="json")

        # state round trip and views
        assert game.state_from_json(json.loads(json.dumps(dumped))) == s
        _check_views(game, s, seed, rnd, [None, rnd.choice(seats)])

        legal = game.legal_actions(s, seat)
        if not hasattr(legal, "__len__"):
            legal = list(legal)
        assert len(legal) > 0, f"step {step}: seat {seat} is prompted but has no legal action"
        for i in _sample_indices(len(legal), SAMPLED_ACTIONS, rnd):
            try:
                _check_action(game, s, seat, legal[i], seed, step)
            except GameError as e:  # pragma: no cover - reported with context
                pytest.fail(f"step {step}: legal action {legal[i]!r} was refused: {e.code}: {e}")

        a = ags[seat].choose(game, s, seat)
        _check_action(game, s, seat, a, seed, step)
        result = apply_at(game, s, seat, a, seed, step)
        assert s.model_dump() == before, f"step {step}: apply mutated its input state"
        _check_events(game, result.events, seats, seed)
        all_events.extend(result.events)
        log.append((seat, a))
        s = result.state
        _check_invariants(game, s, step)

    # the end
    assert game.to_act(s) == {} or not game.to_act(s)
    outcome = game.outcome(s)
    for w in outcome.winners:
        assert w in seats
    assert game.state_from_json(s.model_dump(mode="json")) == s
    _check_views(game, s, seed, rnd, [None, *seats])
    # a finished game accepts no action
    with pytest.raises(GameError):
        game.apply(s, seats[0], log[-1][1], Rng(seed, step + 1))

    # replay of the action log, through its JSON form, reproduces everything
    logged = [(x, game.action_from_json(json.loads(json.dumps(a.model_dump(mode="json"))))) for x, a in log]
    final, events = replay(game, seats, options, seed, logged)
    assert final == s, "replay of the action log does not reproduce the final state"
    assert final.model_dump(mode="json") == s.model_dump(mode="json")
    assert [e.model_dump(mode="json") for e in events] == [e.model_dump(mode="json") for e in all_events]


@pytest.mark.parametrize(("game_id", "players", "agents", "seed", "options"), cases())
def test_playout(game_id: str, players: int, agents: str, seed: int, options: Any) -> None:
    playout(game_id, players, agents, seed, options)


def test_reshuffle_hidden_changes_only_hidden_parts() -> None:
    """The reshuffle functions must really move hidden things (else the view check
    above proves nothing) and keep what is public (hand sizes, deck size)."""
    for game in production_games():
        seats = list(range(max(game.min_players, 4)))
        seed = SEED_BASE + 1
        s = start(game, seats, game.Options(), seed).state
        ags = [make_agent(game, "heuristic", x) for x in seats]
        for step in range(1, 40):
            if game.outcome(s) is not None:
                break
            seat = min(game.to_act(s))
            s = apply_at(game, s, seat, ags[seat].choose(game, s, seat), seed, step).state
        rnd = random.Random(5)
        reshuffled = [RESHUFFLE_HIDDEN[game.id](game, s, rnd, None) for _ in range(5)]
        assert any(r != s for r in reshuffled), f"{game.id}: reshuffling hidden parts changed nothing"
        for r in reshuffled:
            assert game.view(r, None) == game.view(s, None)
        kept = RESHUFFLE_HIDDEN[game.id](game, s, rnd, 0)
        assert game.view(kept, 0) == game.view(s, 0)
