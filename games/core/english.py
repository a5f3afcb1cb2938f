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


_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do"}
_NOT_VERBS = frozenset(["always", "perhaps", "thus", "sometimes", "afterwards", "towards", "besides", "unless", "as",
                        "yes", "this", "its", "his", "us", "also"])


def _plain(verb: str) -> str:
    """The form of a third-person singular ``verb`` that follows "You": plays -> play,
    passes -> pass, carries -> carry, has -> have; a word that is not such a verb as it is."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _NOT_VERBS:
        return verb
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith(("ss", "us", "is")) and len(verb) > 2:
        return verb[:-1]
    return verb


def as_you(text: str) -> str:
    """``text`` once a player's name in it was replaced by "You": the verb after it agrees
    ("You plays the Ostrogoths" -> "You play the Ostrogoths", "You reveals the Egyptians and
    takes 4 units" -> "You reveal ... and take 4 units") and the possessive reads "Your"
    ("You's hand" -> "Your hand"); a "!" or "?" ending a name is not followed by a full stop
    ("You drew: Scandal!." -> "You drew: Scandal!")."""
    import re

    def both(m: re.Match[str]) -> str:  # "You reveals the Egyptians and takes 4 units"
        first, between, second = m.group(1), m.group(2), m.group(3)
        if _plain(first) == first:
            return m.group(0)
        return f"You {_plain(first)}{between}{_plain(second)}"

    text = re.sub(r"\bYou's\b", "Your", text)
    text = re.sub(r"\bYou ([a-z]+)\b([^.;:!?]*?\band )([a-z]+)\b", both, text)
    text = re.sub(r"\bYou ([a-z]+)\b", lambda m: f"You {_plain(m.group(1))}", text)
    return re.sub(r"([!?])\.(?=\s|$)", r"\1", text)
