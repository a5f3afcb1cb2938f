"""Correct English wherever a count or a name's possessive is shown (games.core.english)."""

from __future__ import annotations

from games.core import start
from games.core.english import count, possessive


def test_count_and_possessive() -> None:
    assert count(1, "card") == "1 card" and count(0, "card") == "0 cards"
    assert count(2, "more card") == "2 more cards" and count(1, "army", "armies") == "1 army"
    assert possessive("Huns") == "Huns'" and possessive("Rome") == "Rome's"


def test_barbarian_hordes_hand_seen_and_cards_drawn_read_as_english() -> None:
    """Barbarian Hordes events: "Huns' hand", "drew 1 card" (not "Huns's hand", "1 cards")."""
    from games.barbarian_hordes.model import CardsDrawn, HandSeen

    assert HandSeen(seat=0, target=1, who="Huns", names=("Horde",)).describe() == "Huns' hand: Horde."
    assert CardsDrawn(seat=0, who="Franks", count=1).describe() == "Franks drew 1 card."


def test_barbarian_hordes_board_says_last_war_once_and_one_card() -> None:
    """Barbarian Hordes board: "Last war: Huns 7 ..." (not "Last war: War: ..."), "1 card"."""
    from games.barbarian_hordes.game import GAME as BH
    from games.barbarian_hordes.model import WarResult
    from tests.bh_helpers import make_state

    s = make_state(["Huns", "Visigoths", "Ostrogoths"], phase="conquest", hands=[["Horde"], [], []])
    note = "War: Huns 7 (rolled 4) vs Visigoths 5 (rolled 2). Huns win."
    s = s.model_copy(update={"last_war": WarResult(attacker=0, defender=1, outcome="attacker", note=note)})
    from games.barbarian_hordes.text import summary

    board = summary(BH.view(s, 0))
    assert "Last war: Huns 7" in board and "War: War:" not in board and "Last war: War:" not in board
    assert "1 card" in board and "1 cards" not in board


def test_roman_war_cost_zone_prompt_never_offers_zero_more_cards() -> None:
    """Roman War, Cost Zone phase (2 cards a turn): with both placed the prompt does not say
    "put up to 0 more card(s)"."""
    from games.roman_war import GAME as RW
    from games.roman_war.game import COST_ZONE_PER_TURN

    s = start(RW, [0, 1], RW.Options(), 3).state
    s = s.model_copy(update={"phase": "cost", "placed": COST_ZONE_PER_TURN})
    texts = [p.text for p in RW.to_act(s).values()]
    assert texts and not any("0 more" in t or "card(s)" in t for t in texts), texts
    s = s.model_copy(update={"placed": COST_ZONE_PER_TURN - 1})
    assert any("put up to 1 more card face down" in p.text for p in RW.to_act(s).values())


def test_barbarian_hordes_war_lines_count_one_army_token() -> None:
    """CONQUEST PHASE (war commitments, R12 support): "Huns for Gepids: 1 Army Token" and
    "Losses: ... 1 Army Token", never "1 Army Tokens"."""
    from games.barbarian_hordes.game import GAME as BH
    from tests.bh_helpers import Dice, make_state

    s = make_state(["Huns", "Visigoths", "Ostrogoths"], phase="conquest", conquests_left=2, armies=[10, 10, 10])
    s = BH.apply(s, 0, BH.parse_action(s, 0, "attack Visigoths"), Dice()).state
    s = BH.apply(s, 0, BH.parse_action(s, 0, "fight"), Dice()).state
    s = BH.apply(s, 2, BH.parse_action(s, 2, "support Huns with 1 armies"), Dice()).state
    step = BH.apply(s, 1, BH.parse_action(s, 1, "fight"), Dice(9, 1, 4, 4))
    texts = [getattr(e, "text", "") or "" for e in step.events] + [step.state.last_war.note or ""]
    joined = "\n".join(texts)
    assert "Ostrogoths for Huns: 1 Army Token" in joined, joined
    assert "1 Army Tokens" not in joined, joined


def test_promised_land_counts_dice_and_points() -> None:
    """Promised Land: a force victory with one die reads "(1 die, defence +0)"; a Kingdom track
    token worth 1 point reads "(1 point)" (never "1 dice", "1 points")."""
    import inspect

    from games.promised_land.rules import actions, combat

    src = inspect.getsource(combat) + inspect.getsource(actions)
    assert "count(dice, 'die', 'dice')" in src and "count(tok.points, 'point')" in src
    assert "{dice} dice" not in src and "{tok.points} points" not in src
    assert count(1, "die", "dice") == "1 die" and count(3, "die", "dice") == "3 dice"


def test_no_number_before_a_plural_noun_in_player_text() -> None:
    """All five games, the host and the renderers: a count shown to a player goes through
    ``count`` ("1 unit", "1 pip", "1 vote", "1 action"), never "{n} units"."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    nouns = "cards|units|points|dice|coins|pips|votes|actions|steps|Army Tokens"
    pat = re.compile(r"\{(?:n|f\.units|moved|cost|v|t\.collected|gv\.given|fs\.supply|take|p\.votes|p\.armies|"
                     r"dice|tok\.points|c\.points|c\.units|c\.hills|a\.cost|self\.any|c\.armies|lost|a_lost|d_lost|"
                     r"found\.seq|len\(options\)|max_steps|seats|page\.steps|page\.actions|played|len\(frames\))\} "
                     rf"(?:{nouns})\b")
    bad = []
    for sub in ("games", "render", "bot"):
        for path in (root / sub).rglob("*.py"):
            for i, line in enumerate(path.read_text().splitlines(), 1):
                if pat.search(line):
                    bad.append(f"{path.relative_to(root)}:{i}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_promised_land_lands_name_their_holders() -> None:
    """Promised Land lands list: the holder by name and the units counted ("Phoenicians, 1 unit"),
    never a data id ("phoenicians x1", "southern x1")."""
    from games.core import get_game
    from games.promised_land.text import summary

    g = get_game("promised-land")
    text = summary(g.view(start(g, [0, 1, 2, 3], g.Options(), 3).state, 0))
    assert "Phoenicians, 1 unit" in text and "Canaanites, 1 unit" in text
    assert " x1" not in text and "phoenicians" not in text, text


def test_waiting_line_ends_once_and_short_lists_show_every_name() -> None:
    """Barbarian Hordes "Waiting for: Huns (... or pass)." ends with one full stop; a list one
    over its limit shows the last name instead of "and 1 more"."""
    from games.barbarian_hordes.game import GAME as BH
    from games.barbarian_hordes.text import summary
    from games.core.errors import list_words
    from tests.bh_helpers import Dice, make_state

    s = make_state(["Huns", "Visigoths", "Ostrogoths"], phase="conquest", conquests_left=2)
    s = BH.apply(s, 0, BH.parse_action(s, 0, "attack Visigoths"), Dice()).state
    v = BH.view(s, 0)
    v = v.model_copy(update={"window": "Huns' Event Phase: play X, P or I cards on them, or pass."})
    line = next(x for x in summary(v).splitlines() if x.startswith("Waiting for:"))
    assert not line.endswith(".).") and not line.endswith("..") and line.endswith(")."), line
    assert list_words([str(i) for i in range(13)]) == ", ".join(str(i) for i in range(13))
    assert list_words([str(i) for i in range(14)]).endswith(", and 2 more")


def test_roman_war_names_an_ambush_once() -> None:
    """Roman War: "Hannibal plays the Ambush at the Ford", never "the Ambush Ambush at the Ford"."""
    from games.roman_war.game import ambush_named

    assert ambush_named("Ambush at the Ford") == "the Ambush at the Ford"
    assert ambush_named("Trasimene") == "the Ambush Trasimene"


def test_soul_of_the_empire_objectives_and_board_read_in_full() -> None:
    """Soul of the Empire: an objective on one territory reads "4+ units in Jerusalem" (not
    "in each of Jerusalem"); the board names factions in full, not "Chri 2"."""
    from games.soul_of_the_empire import GAME as SE
    from games.soul_of_the_empire.text import summary

    texts = [SE.objective_text(c, f) for c in SE.data.objectives.values() for f in ("rome", "jews", "coalition", "christians")]
    assert not [t for t in texts if "each of" in t and "," not in t.split("each of")[1]], texts
    s = start(SE, [0, 1, 2, 3], SE.Options(), 3).state
    board = summary(SE, SE.view(s, 0))
    assert "Chri " not in board and "Jewi " not in board and "Coal " not in board, board


def test_help_names_what_each_game_explains() -> None:
    """The help footer names what each game has (Credo has no nations, Soul of the Empire has
    factions): every kind of entry ``explain`` knows is covered by the game's words."""
    from games.core import get_game
    from games.core.explain import explain_options

    words = {g: get_game(g).explained for g in
             ("barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire")}
    assert "nation" not in words["credo"] and "faction" in words["soul-of-the-empire"]
    assert len(set(words.values())) == 5
    g = get_game("credo")
    assert "Church card, Article card or Event card of this game" in explain_options(g.explanations(), ["pass"], g.explained)


def test_soul_of_the_empire_turn_prompt_names_the_faction_only_when_a_seat_has_two() -> None:
    """Soul of the Empire: with one faction a seat, the prompt is "Start Phase: ..." (the host
    already says "(seat 1, Rome)"); in the 2-player game (two factions a seat, RULINGS R1) it
    says which faction acts: "Rome — Start Phase: ..."."""
    from games.core import apply_at
    from games.soul_of_the_empire import GAME as SE

    def first_phase_prompt(seats: list[int]) -> str:
        s = start(SE, seats, SE.Options(), 3).state
        for n in range(1, 400):
            asked = SE.to_act(s)
            texts = [p.text for p in asked.values() if "Phase:" in p.text]
            if texts:
                return texts[0]
            seat = min(asked)
            s = apply_at(SE, s, seat, SE.legal_actions(s, seat)[0], 3, n).state
        raise AssertionError("no phase prompt")

    assert first_phase_prompt([0, 1, 2, 3]).startswith("Start Phase:")
    two = first_phase_prompt([0, 1])
    assert " — Start Phase:" in two, two


def test_credo_public_placement_has_public_notation() -> None:
    """Credo Set Up: "Church 2 places Article 6 ... as Article of Faith" is announced to all, so
    the action's notation is public too (not "(a secret choice)" in the log)."""
    from games.credo import GAME as CR
    from games.credo.model import Place

    s = start(CR, [0, 1, 2], CR.Options(), 3).state
    seat = min(CR.to_act(s))
    place = next(a for a in CR.legal_actions(s, seat) if isinstance(a, Place))
    assert CR.notation_is_public(s, seat, place)
    assert not [a for a in CR.legal_actions(s, seat) if not isinstance(a, Place) and CR.notation_is_public(s, seat, a)]


def test_a_line_naming_the_terminal_player_you_reads_as_english() -> None:
    """The terminal names its one human "You": "Seat 1 plays the Ostrogoths" must read "You play
    the Ostrogoths", "Seat 1's hand" "Your hand"; a card name ending in "!" takes no full stop
    after it ("You drew: Scandal!", "Church 2 played Apostacy! Play an Event card")."""
    from games.core.english import as_you

    assert as_you("You plays the Ostrogoths. Populous: roll twice.") == "You play the Ostrogoths. Populous: roll twice."
    assert as_you("You has 3 cards; You passes; You carries; You is asked") == "You have 3 cards; You pass; You carry; You are asked"
    assert as_you("You's hand: Horde.") == "Your hand: Horde."
    assert as_you("Card 2: You reveals the Egyptians and takes 4 units.") == (
        "Card 2: You reveal the Egyptians and take 4 units.")
    assert as_you("You drew 2 cards and Huns takes 1.") == "You drew 2 cards and Huns takes 1."
    assert as_you("(private) You drew: Scandal!.") == "(private) You drew: Scandal!"
    assert as_you("Church 2 played Apostacy!. Play an Event card, or pass.") == (
        "Church 2 played Apostacy! Play an Event card, or pass.")
    assert as_you("You drew 5 cards; You always lose; Huns plays") == "You drew 5 cards; You always lose; Huns plays"


def test_the_terminal_writes_you_in_agreement() -> None:
    """Through the host's naming of event lines: "Seat 1 plays the Ostrogoths." reads "You play
    the Ostrogoths." when the terminal names its one human "You"."""
    from types import SimpleNamespace

    from bot.host.service import Host

    rec = SimpleNamespace(seats=[SimpleNamespace(seat=0, user_id=1)])
    host = Host.__new__(Host)
    host.names = SimpleNamespace(user=lambda uid: "You")
    assert host._named(rec, "Seat 1 plays the Ostrogoths.") == "You play the Ostrogoths."


def test_roman_war_turn_lines_use_the_possessive_helper() -> None:
    """Roman War: "Round 1: Fabius' turn." (a name ending in s takes the apostrophe alone, as
    everywhere else), not "Fabius's turn"."""
    from games.roman_war.model import TurnBegan

    assert TurnBegan(round=1, seat=0, who="Fabius").describe() == "Round 1: Fabius' turn."


def test_a_game_no_player_won_says_so_without_contradicting_its_reason() -> None:
    """Roman War co-op lost by the Romans: "Game over, no player won: The Roman side has not won
    by the end of round 10: Hannibal wins." (not "nobody won (... Hannibal wins.)"); the reason's
    seats are named like every other line."""
    from types import SimpleNamespace

    from bot.host.service import Host

    host = Host.__new__(Host)
    host.names = SimpleNamespace(user=lambda uid: "You", channel=lambda cid: "the terminal")
    host._seat_label = lambda rec, seat: None  # no nation or faction names in this game
    reason = "The Roman side has not won by the end of round 10: Hannibal wins."
    rec = SimpleNamespace(status="finished", outcome={"winners": [], "reason": reason}, seed=1, seed_hash="ab", id=1,
                          seats=[SimpleNamespace(seat=0, user_id=1)])
    text = host._outcome_text(rec)
    assert text.startswith(f"Game over, no player won: {reason} Seed: 1")
    rec.outcome = {"winners": [0], "reason": "Scores: seat 1 79, seat 2 76."}
    assert host._outcome_text(rec).startswith("Game over: You won (Scores: You 79, seat 2 76.).")


def test_the_end_line_names_the_winner_once() -> None:
    """Credo: a reason that already says who won ("seat 2 wins! ...") is the end line itself,
    not "Game over: X won (X wins! ...)"."""
    from types import SimpleNamespace

    from bot.host.service import Host

    host = Host.__new__(Host)
    host.names = SimpleNamespace(user=lambda uid: "You", channel=lambda cid: "the terminal")
    host._seat_label = lambda rec, seat: None
    rec = SimpleNamespace(status="finished", outcome={"winners": [1], "reason": "seat 2 wins! 7 Articles."},
                          seed=1, seed_hash="ab", id=1, seats=[SimpleNamespace(seat=0, user_id=1)])
    text = host._outcome_text(rec)
    assert text.startswith("Game over: seat 2 wins! 7 Articles. Seed: 1"), text
    assert text.count("wins") == 1 and " won (" not in text
