"""How an action reads to a given viewer (ARCHITECTURE.md, trust invariant 1: one voice per viewer).

Every message of the host that names an action — turn updates, the undo request, notice and
refusal, log pages, private messages, the console — words it through ``notation_for`` or
``action_for``: the notation as typed for the seat that played it (and for everyone when the
game declares it public, ``ActionRecord.secret`` is False), otherwise only what the events
visible to that viewer say of it, or "a secret choice".

Viewers are seats (zero-based) or None for everyone else: the channel, spectators,
followers.
"""

from __future__ import annotations

from games.core import Seat
from storage import ActionRecord

SECRET_CHOICE = "a secret choice"
MAX_EVENT_CHARS = 160


def shows_notation(row: ActionRecord, viewer: Seat | None) -> bool:
    """Whether ``viewer`` may read ``row``'s notation as typed: it is public, or the
    viewer's own seat played it."""
    return not row.secret or (viewer is not None and row.seat == viewer)


def notation_for(row: ActionRecord, viewer: Seat | None) -> str | None:
    """``row.notation`` when ``viewer`` may read it (``shows_notation``), else None."""
    return row.notation if shows_notation(row, viewer) else None


def action_for(row: ActionRecord, viewer: Seat | None) -> str:
    """``row``'s action named for ``viewer`` inside a sentence.

    Returns the notation in quotes (``'support Huns with 3 armies'``) when the viewer may
    read it; otherwise ``a secret choice``, followed in parentheses by the first event of the
    action that the viewer may see (``a secret choice (Huns committed in secret)``), cut to
    ``MAX_EVENT_CHARS`` characters."""
    shown = notation_for(row, viewer)
    if shown is not None:
        return f"'{shown}'"
    seen = next((e.text.strip() for e in row.events if e.visible(viewer) and e.text.strip()), "")
    if not seen:
        return SECRET_CHOICE
    if len(seen) > MAX_EVENT_CHARS:
        seen = seen[: MAX_EVENT_CHARS - 1].rstrip() + "…"
    return f"{SECRET_CHOICE} ({seen})"
