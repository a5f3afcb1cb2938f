"""games — pure rules: no discord, no I/O, no global random (ARCHITECTURE.md, "Layers")."""

import importlib

GAME_PACKAGES = (
    "games.barbarian_hordes",
    "games.promised_land",
    "games.credo",
    "games.soul_of_the_empire",
    "games.roman_war",
)

_loaded = False


def load_all() -> None:
    """Import every game package so each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in GAME_PACKAGES:
        importlib.import_module(name)
