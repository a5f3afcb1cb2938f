"""Input read the way a player means it (issue: typed numbers, typos, own nation).

Each test names the input a player typed and what it must read as.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import AmbiguousActionError, GameError, InvalidNotationError, start
from games.core.notation import _THOUSANDS, _fold_unicode, fold
from games.credo import GAME as CREDO
from games.credo.model import Pick, Task


@settings(max_examples=400, database=None, derandomize=True, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_plain_text_folds_as_any_text_does(text: str) -> None:
    """Typed text without accents (what the notations write) is folded by a table: any case,
    "&" as "and", punctuation as spaces, exactly as text with accents is."""
    assert fold(text) == _fold_unicode(_THOUSANDS.sub("", text))


def _credo_lose_state():
    """Church 1 must "Lose 1 Church card" holding 20,000 / 200,000 / 75,000 / 750,000 Followers."""
    s = start(CREDO, [0, 1, 2], CREDO.Options(), 7).state
    cards = ("f-20000-1", "f-200000-1", "f-75000-1", "f-750000-1")
    players = list(s.players)
    players[0] = players[0].model_copy(update={"church": cards})
    task = Task(chooser=0, owner=0, kinds=("any",), count=1, reason="test")
    return s.model_copy(update={"players": tuple(players), "tasks": (task,), "phase": "play"})


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("pick 20,000", "f-20000-1"),
        ("pick 75,000", "f-75000-1"),
        ("pick 75,000 f", "f-75000-1"),
        ("pick 20000", "f-20000-1"),
        ("pick 200,000", "f-200000-1"),
        ("pick 750,000 Followers", "f-750000-1"),
    ],
)
def test_credo_lose_a_number_typed_in_full_matches_that_number(typed: str, card: str) -> None:
    """Credo, "Lose N Church card": a Follower card's number typed in full names that card,
    not the ten-times-larger one it is a prefix of."""
    s = _credo_lose_state()
    assert CREDO.parse_action(s, 0, typed) == Pick(card=card)


def test_credo_lose_a_cut_number_is_still_a_prefix() -> None:
    """A number cut short ("pick 75") still reads as a prefix and may be ambiguous."""
    s = _credo_lose_state()
    with pytest.raises(AmbiguousActionError):
        CREDO.parse_action(s, 0, "pick 7")


def _soul_main():
    from tests.games.soul_of_the_empire.test_soul_of_the_empire_messages import main_jews

    return main_jews()


def test_soul_main_phase_misspelt_command_word_is_matched_to_the_nearest() -> None:
    """Soul of the Empire, Main Phase: `mvoe 4: 2 Rome-Italia` names `move` (nearest command
    word by edit distance), not "try: buy 4"."""
    from games.soul_of_the_empire import GAME as SOUL
    from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import seat

    s = _soul_main()
    me = seat(s, "jews")
    moves = [t for t in (SOUL.format_action(s, a) for a in SOUL.legal_actions(s, me)) if t.startswith("move ")]
    assert moves
    typo = "mvoe" + moves[0][len("move"):]
    with pytest.raises(InvalidNotationError) as e:
        SOUL.parse_action(s, me, typo)
    assert f"did you mean {moves[0]!r}" in str(e.value)
    assert "try: buy" not in str(e.value)


def test_soul_main_phase_nonsense_lists_the_command_words_legal_now() -> None:
    """Soul of the Empire, Main Phase: nonsense is told the command words legal now."""
    from games.soul_of_the_empire import GAME as SOUL
    from tests.games.soul_of_the_empire.test_soul_of_the_empire_rules import seat

    s = _soul_main()
    me = seat(s, "jews")
    words = sorted({SOUL.format_action(s, a).split()[0] for a in SOUL.legal_actions(s, me)})
    with pytest.raises(GameError) as e:
        SOUL.parse_action(s, me, "qqzx wibble")
    assert "Unknown action 'qqzx'" in str(e.value)
    for w in words:
        assert w in str(e.value)


def test_barbarian_hordes_attack_own_nation_says_so_and_lists_only_attackable() -> None:
    """Barbarian Hordes, Conquest Phase ("attack a neighbour"): `attack huns` typed by the
    Huns says Huns is your own nation and lists only the nations you may attack."""
    from games.barbarian_hordes.game import GAME as BH
    from tests.bh_helpers import make_state

    s = make_state(["Huns", "Visigoths", "Ostrogoths", "Vandals", "Franks"], phase="conquest")
    with pytest.raises(InvalidNotationError) as e:
        BH.parse_action(s, 0, "attack huns")
    msg = str(e.value)
    assert "Huns is your own nation" in msg
    assert "Visigoths" in msg and "Franks" in msg
    assert "Ostrogoths" not in msg and "Vandals" not in msg
    with pytest.raises(InvalidNotationError) as e:
        BH.parse_action(s, 0, "attack goths of the moon")
    assert "Ostrogoths" not in str(e.value) and "Visigoths" in str(e.value)


def test_barbarian_hordes_support_offers_every_army_count() -> None:
    """Barbarian Hordes, war commitment ("support ... with armies"): `help` with 5 armies
    offers support with 1, 2, 3, 4 and 5 armies (4 was missing)."""
    from games.barbarian_hordes.game import GAME as BH
    from games.barbarian_hordes.notation import candidates
    from tests.bh_helpers import act, make_state

    s = make_state(["Huns", "Visigoths", "Ostrogoths"], phase="conquest", armies=[10, 10, 5])
    s = act(s, 0, "attack Visigoths")
    assert 2 in BH.to_act(s)
    offered = candidates(BH, s, 2, limit=100)
    for n in range(1, 6):
        assert f"support Huns with {n} {'army' if n == 1 else 'armies'}" in offered


def test_console_text_typed_at_the_handover_is_the_first_command() -> None:
    """Terminal hot-seat: text typed at "press Enter when only they can see" is not dropped;
    it is echoed and used as the incoming player's first command (so piped input loses nothing)."""
    import io

    import tests.toygame  # noqa: F401  (registers "count")
    from bot.console import Console

    lines = iter(["add", "pass", "", "pass"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    Console("count", 2, 0, seed=5, options={"target": 12}, out=out, read=read).run()
    text = out.getvalue()
    assert "> add   (typed at the handover: used as your first command)" in text
    assert "added 1; total 1." in text.split("(typed at the handover", 1)[1]


def test_barbarian_hordes_command_word_cut_short() -> None:
    """Barbarian Hordes, Conquest Phase: `att vis` is `attack Visigoths` (a command word may be
    cut to an unambiguous prefix, as in the other four games)."""
    from games.barbarian_hordes.game import GAME as BH
    from tests.bh_helpers import make_state

    s = make_state(["Huns", "Visigoths", "Ostrogoths", "Vandals", "Franks"], phase="conquest")
    assert BH.format_action(s, BH.parse_action(s, 0, "att vis")) == "attack Visigoths"
    assert BH.format_action(s, BH.parse_action(s, 0, "at franks")) == "attack Franks"
