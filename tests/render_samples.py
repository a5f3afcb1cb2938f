"""Hand-built Views and a small map for the render tests and bench/render.py.

``bh_view`` builds a Barbarian Hordes View directly from the models (no rules
needed), deterministic for a given seed. ``SAMPLE_MAP`` is a small map data
file ("Mare Parvum", seven lands and two seas) used to show the map renderer.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

from games.barbarian_hordes.model import CardView, Contribution, PlayerView, View, WarResult, WarView

DATA = Path(__file__).resolve().parents[1] / "games" / "barbarian_hordes" / "data"
LONG_NAME = (
    "Ælfgifu the Unready of the Very Long Name Dynasty, Queen of All Lands Between the Two Rivers ⚔️ 👑"
    + "!" * 100
)[:100]
UNICODE_NAMES = [
    "Ælfgifu",
    "李小龍 (Bruce)",
    "مرحبا بالعالم",
    "שלום עולם 42",
    "🦊🔥 Fox‍👩‍🚀",
    "Zoë\u200b\u202e evil\nname\t",
    "x" * 100,
    LONG_NAME,
    "\u0000\u0007bell",
    "Ωμέγα Οδυσσέας",
    "Đặng Thị Ngọc",
    "𝔉𝔯𝔞𝔫𝔨",
]


def _nations() -> tuple[list[dict], dict[str, str]]:
    data = tomllib.loads((DATA / "nations.toml").read_text(encoding="utf-8"))
    return data["nation"], data["abilities"]


def _cards() -> list[dict]:
    return tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))["card"]


def card_view(c: dict) -> CardView:
    bits = []
    if c.get("force"):
        bits.append(f"Force +{c['force']} in a war.")
    if "L" in c["types"]:
        bits.append("Leader card: may be negated by a K card.")
    if "X" in c["types"]:
        bits.append("Target loses 1D6 Army Tokens.")
    if "G" in c["types"]:
        bits.append("Gain 1D6 Army Tokens in your Event Phase.")
    return CardView(
        id=c["id"],
        name=c["name"],
        types=c["types"],
        force=c.get("force"),
        only=c.get("only"),
        text=" ".join(bits) or "See the card list.",
    )


def bh_view(
    n: int,
    seed: int = 0,
    *,
    phase: str = "conquest",
    viewer: int | None = None,
    war: str = "last",
    hand_size: int | None = None,
    winner: int | None = None,
) -> View:
    """A plausible Barbarian Hordes View for ``n`` seats. ``war``: ``last`` (a past
    result), ``now`` (a war in progress) or ``none``. With ``viewer`` that seat's
    hand is filled in (``hand_size`` cards)."""
    rnd = random.Random(seed)
    nations, abilities = _nations()
    cards = _cards()
    picked = nations[:]
    rnd.shuffle(picked)
    seating = list(range(n))
    rnd.shuffle(seating)
    turn_order = list(range(n))
    rnd.shuffle(turn_order)
    players = []
    for s in range(n):
        nat = picked[s % len(picked)]
        status = "in"
        if phase == "draft" and s >= n // 2:
            status = "drafting"
        elif n > 3 and s == n - 1 and seed % 3 == 1:
            status = "out"
        hs = rnd.randint(0, 9)
        hand = None
        if viewer == s:
            hs = hand_size if hand_size is not None else hs
            hand = tuple(card_view(c) for c in rnd.sample(cards, hs))
        players.append(
            PlayerView(
                seat=s,
                nation=None if status == "drafting" else nat["name"],
                nation_id=None if status == "drafting" else nat["id"],
                ability=" ".join(abilities[a] for a in nat.get("abilities", []))
                if status != "drafting"
                else "",
                armies=0 if status == "out" else rnd.randint(0, 24),
                territories=0 if status == "out" else rnd.randint(1, 9),
                hand_size=hs,
                status=status,
                hand=hand,
            )
        )
    active = turn_order[rnd.randrange(n)]
    if players[active].status != "in" and phase != "draft":
        active = next(p.seat for p in players if p.status == "in")
    i = seating.index(active)
    neighbour = seating[(i + 1) % n]
    war_view = None
    last = None
    waiting: tuple[int, ...] = (active,)
    if war == "now":
        others = [s for s in range(n) if s not in (active, neighbour)]
        committed = tuple(sorted(rnd.sample(others, len(others) // 2)))
        w = tuple(s for s in [active, neighbour, *others] if s not in committed)
        war_view = WarView(
            attacker=active, defender=neighbour, stage="commit", committed=committed, waiting=w
        )
        waiting = w
    if war in ("last", "now"):
        a, d = rnd.sample(range(n), 2)
        outcome = rnd.choice(["attacker", "defender", "stalemate"])
        last = WarResult(
            attacker=a,
            defender=d,
            attacker_total=rnd.randint(5, 30),
            defender_total=rnd.randint(5, 30),
            attacker_roll=rnd.randint(1, 10),
            defender_roll=rnd.randint(1, 10),
            outcome=outcome,
            attacker_losses=rnd.randint(0, 6),
            defender_losses=rnd.randint(0, 6),
            territory_taken=outcome == "attacker",
            note="Allied Armies are the last to be made casualties.",
        )
    if phase == "over":
        winner = active if winner is None else winner
    if winner is not None:
        players[winner] = players[winner].model_copy(update={"territories": 10})
    top = card_view(rnd.choice(cards))
    return View(
        viewer=viewer,
        variant="standard",
        round=rnd.randint(1, 12),
        phase=phase,
        active=None if phase == "over" else active,
        turn_order=tuple(turn_order),
        seating=tuple(seating),
        players=tuple(players),
        deck_size=rnd.randint(0, 120),
        discard_size=rnd.randint(0, 40),
        discard_top=top,
        conquests_left=1,
        attack_forbidden=False,
        protected=(seating[i - 1],) if n > 3 and seed % 2 else (),
        waiting=() if phase == "over" else waiting,
        window=None,
        war=war_view,
        last_war=last,
        winner=winner,
        end_reason="First to 10 Territory Tokens." if winner is not None else "",
    )


def contribution_example() -> Contribution:
    return Contribution(seat=0, side=0, cards=("cavalry",), armies=2)


SAMPLE_MAP = """
# Mare Parvum: a small map for the render tests (authored for the tests).
id = "mare-parvum"
title = "Mare Parvum"
width = 100
height = 60
land = "#E9E0C9"
sea = "#9CC3D9"

[[region]]
id = "north"
name = "Septentrio"
colour = "#E69F00"
pattern = "hatch"

[[region]]
id = "south"
name = "Meridies"
colour = "#56B4E9"
pattern = "dots"

[[region]]
id = "east"
name = "Oriens"
colour = "#009E73"
pattern = "cross"

[[node]]
id = "arvernia"
name = "Arvernia"
x = 14
y = 14
region = "north"
terrain = ["mountain"]
polygon = [[2, 3], [27, 2], [30, 22], [12, 27], [3, 20]]

[[node]]
id = "belgica"
name = "Belgica"
x = 42
y = 11
region = "north"
terrain = ["forest"]
polygon = [[27, 2], [58, 3], [56, 20], [30, 22]]

[[node]]
id = "cilicia"
name = "Cilicia Magna Superior"
x = 72
y = 12
region = "east"
polygon = [[58, 3], [97, 3], [95, 24], [70, 26], [56, 20]]

[[node]]
id = "dacia"
name = "Dacia"
x = 84
y = 40
region = "east"
terrain = ["hills"]
polygon = [[70, 26], [95, 24], [98, 56], [78, 57], [72, 42]]

[[node]]
id = "etruria"
name = "Etruria"
x = 16
y = 44
region = "south"
terrain = ["desert"]
polygon = [[3, 20], [12, 27], [28, 34], [30, 57], [2, 57]]

[[node]]
id = "frisia"
name = "Frisia"
x = 46
y = 50
region = "south"
terrain = ["marsh"]
polygon = [[30, 46], [56, 40], [66, 57], [30, 57]]

[[node]]
id = "gallaecia"
name = "Gallaecia"
x = 62
y = 47
region = "south"

[[node]]
id = "mare-internum"
name = "Mare Internum"
kind = "sea"
x = 44
y = 31

[[node]]
id = "sinus"
name = "Sinus"
kind = "sea"
x = 71
y = 35

[[edge]]
a = "arvernia"
b = "belgica"

[[edge]]
a = "belgica"
b = "cilicia"

[[edge]]
a = "cilicia"
b = "dacia"
kind = "road"

[[edge]]
a = "arvernia"
b = "etruria"

[[edge]]
a = "etruria"
b = "frisia"
kind = "river"

[[edge]]
a = "frisia"
b = "gallaecia"

[[edge]]
a = "gallaecia"
b = "dacia"

[[edge]]
a = "etruria"
b = "mare-internum"
kind = "sea"

[[edge]]
a = "belgica"
b = "mare-internum"
kind = "sea"

[[edge]]
a = "mare-internum"
b = "sinus"
kind = "sea"

[[edge]]
a = "sinus"
b = "dacia"
kind = "sea"

[[edge]]
a = "sinus"
b = "cilicia"
kind = "sea"
"""


def sample_overlay(seed: int = 0, factions: int = 4):
    """A deterministic state drawn on ``SAMPLE_MAP``: units of ``factions`` sides,
    cities, a capital, a revolt, control flags and a highlighted battle."""
    from render.map import Faction, MapOverlay, Marker, Units, load_map

    m = load_map(SAMPLE_MAP)
    rnd = random.Random(seed)
    names = ["Hebrews", "Philistines", "Egypt", "Assyria", "Aram", "Moab", "Edom", "Phoenicia"]
    fs = tuple(Faction(id=f"f{i}", name=names[i % len(names)], seat=i) for i in range(factions))
    lands = [n.id for n in m.nodes if n.kind == "land"]
    units = []
    for node in lands:
        for f in rnd.sample(fs, rnd.randint(0, min(3, factions))):
            units.append(Units(node=node, faction=f.id, count=rnd.randint(1, 12)))
    markers = [
        Marker(node=lands[0], kind="capital", faction=fs[0].id),
        Marker(node=lands[2], kind="city", faction=fs[1 % factions].id, label="Tarsus"),
        Marker(node=lands[3], kind="revolt"),
        Marker(node=lands[4], kind="control", faction=fs[2 % factions].id),
        Marker(node=lands[5], kind="temple", faction=fs[3 % factions].id),
        Marker(node=lands[6], kind="port"),
    ]
    return m, MapOverlay(
        game="Mare Parvum",
        round=rnd.randint(1, 9),
        phase="Campaign",
        active=fs[rnd.randrange(factions)].id,
        factions=fs,
        units=tuple(units),
        markers=tuple(markers),
        highlight=(rnd.choice(lands),),
    )
