"""English for messages and boards, shared by the five games, the host and the renderers."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the right number: ``count(1, "card")`` -> ``"1 card"``,
    ``count(0, "card")`` -> ``"0 cards"``, ``count(2, "army", "armies")`` -> ``"2 armies"``.

    Parameters
    ----------
    n : int
        How many (any integer; only exactly 1 and -1 take the singular).
    noun : str
        The singular.
    plural : str | None
        The plural when it is not ``noun + "s"``.
    """
    return f"{n} {noun if abs(n) == 1 else (plural or noun + 's')}"


def possessive(name: str) -> str:
    """``name`` with the possessive ending: ``"Rome"`` -> ``"Rome's"``, a plural name
    ending in s takes the apostrophe alone: ``"Huns"`` -> ``"Huns'"``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
