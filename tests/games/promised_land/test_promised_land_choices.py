"""Promised Land: the choices the rule text (shared/seeds/002_22734f2d945f618a.txt) gives a player are
offered as it words them. Each test quotes its sentence."""

from __future__ import annotations

from games.promised_land.game import GAME as G
from games.promised_land.model import PlayArtefact
from tests.games.promised_land.test_promised_land_rules import _actions, act


def _legal_texts(s):
    return [G.format_action(s, a) for a in G.legal_actions(s, s.turn.seat)]


def test_commerce_one_metal_for_two_others() -> None:
    """Commerce: "Exchange any number of coins for an equal number of any other coins." Four bronze
    may become two silver and two gold in one play (RULINGS R21)."""
    s = _actions(artefacts=("commerce.silver",), coins=(4, 0, 0))
    seat = s.turn.seat
    text = "play Commerce (silver) 4 bronze for 2 silver, 2 gold"
    assert text in _legal_texts(s)
    t = act(s, G.parse_action(s, seat, text))
    assert t.players[seat].coins == (0, 2, 2)
    assert t.coin_supply == (s.coin_supply[0] + 4, s.coin_supply[1] - 2, s.coin_supply[2] - 2)


def test_commerce_two_metals_for_a_third() -> None:
    """Commerce: "any number of coins for an equal number of any other coins": two bronze and one
    silver may become three gold in one play (RULINGS R21); one metal for one other stays as before."""
    s = _actions(artefacts=("commerce.silver",), coins=(2, 1, 0))
    seat = s.turn.seat
    legal = _legal_texts(s)
    assert "play Commerce (silver) 2 bronze, 1 silver for 3 gold" in legal
    assert "play Commerce (silver) 2 bronze for gold" in legal
    assert PlayArtefact(artefact="commerce.silver", coin="bronze", coin2="gold", count=2) in G.legal_actions(s, seat)
    t = act(s, G.parse_action(s, seat, "play commerce silver 2 bronze 1 silver for 3 gold"))
    assert t.players[seat].coins == (0, 0, 3)
    # every exchange is listed once: no two legal actions have the same effect
    plays = [a for a in G.legal_actions(s, seat) if isinstance(a, PlayArtefact)]
    assert len(set(plays)) == len(plays) and len(set(_legal_texts(s))) == len(_legal_texts(s))
