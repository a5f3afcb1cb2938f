"""Persistent buttons and select menus.

Every component's ``custom_id`` names what it does, the session, and the question it
answers (the seat's ``prompt_token``: the number of the last stored action when it was
asked and a digest of the question), so a click is understood without any in-memory view:
components keep working after a restart, and a click is judged against the question its
player saw. A click is outdated only when the clicker's own question changed (or the
clicker answered it meanwhile), never because another seat acted: players answering a
secret phase at the same time are all taken.

Formats (at most 100 characters, Discord's limit)::

    tabula:p:<session>:<token>:<notation>   play the action written in the game's notation
    tabula:q:<session>:<token>:<index>      play the index-th choice (notation too long)
    tabula:m:<session>:<token>              a select menu; its values are notations or #index
    tabula:h:<session>                      show me my hand and my choices (ephemeral)
    tabula:x:<session>                      what do the options of my decision do? (ephemeral)
    tabula:r:<session>                      the rule text for my decision (ephemeral)
    tabula:c:<session>:<token>:<path>       a step of the question's choices: go to ``path``
                                            (option indices from the first step, "3.0.12"), or
                                            play the action it names; also the Back button
    tabula:k:<session>:<token>:<path>       a select menu at step ``path``: its values are an
                                            option's index, or the items picked (multi-select)
    tabula:n:<session>:<token>:<path>       a multi-select step answered with no item picked
    tabula:l:<session>                      show me the game's full log (ephemeral)
    tabula:f:<session>:<token>:<word>       pass now and for the rest of this phase (``word``
                                            what the game calls it: phase, round)
    tabula:u:<session>                      stop passing for the rest of the phase

Buttons posted by earlier releases name the session's version instead of the question
(``tabula:a:<session>:<version>:<notation>``, ``tabula:i:...:<index>``, ``tabula:s:...``);
they are still understood and count only while the version is current.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from games.core.choices import ChoiceError, ChoiceStep, Option, decode_path, encode_path

PREFIX = "tabula:"
MAX_ID = 100
MAX_BUTTONS = 5 * 4  # leave a row for the hand button
MAX_OPTIONS = 25


@dataclass(frozen=True)
class Decoded:
    """A custom id read back: ``kind`` "a" action, "i" index, "s" select, "h" hand, "x" and
    "r" the explain and rules aids, "l" the full log (the new
    formats decode to the same kinds, with ``token`` set and ``version`` None)."""

    kind: str
    session_id: int
    version: int | None = None
    notation: str | None = None
    index: int | None = None
    token: str | None = None
    path: tuple[int, ...] | None = None


def action_id(session_id: int, token: str, notation: str, index: int) -> str:
    cid = f"{PREFIX}p:{session_id}:{token}:{notation}"
    return cid if len(cid) <= MAX_ID else f"{PREFIX}q:{session_id}:{token}:{index}"


def select_id(session_id: int, token: str) -> str:
    return f"{PREFIX}m:{session_id}:{token}"


def hand_id(session_id: int) -> str:
    return f"{PREFIX}h:{session_id}"


AIDS = {"explain": ("x", "What do these do?"), "rules": ("r", "Rules for this step")}


def aid_id(session_id: int, what: str) -> str:
    """The custom id of an aid button: ``what`` "explain" or "rules"."""
    return f"{PREFIX}{AIDS[what][0]}:{session_id}"


PHASE_WORDS = ("phase", "round")


def phase_pass_id(session_id: int, token: str, word: str) -> str:
    """The custom id of "Pass for the rest of this phase" (``word``: phase or round)."""
    return f"{PREFIX}f:{session_id}:{token}:{word}"


def stop_passing_id(session_id: int) -> str:
    return f"{PREFIX}u:{session_id}"


def phase_pass_label(word: str) -> str:
    return f"Pass for the rest of this {word}"


def stop_passing_view(session_id: int, word: str) -> discord.ui.View:
    """The button that ends passing for the rest of the phase: the host asks again."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=f"Ask me again this {word}", style=discord.ButtonStyle.secondary,
                                    custom_id=stop_passing_id(session_id)))
    return view


def _add_phase_pass(view: discord.ui.View, session_id: int, token: str, word: str, row: int | None) -> None:
    if word in PHASE_WORDS:
        view.add_item(discord.ui.Button(label=phase_pass_label(word), style=discord.ButtonStyle.secondary,
                                        custom_id=phase_pass_id(session_id, token, word), row=row))


def option_value(notation: str, index: int) -> str:
    return notation if len(notation) <= 100 and not notation.startswith("#") else f"#{index}"


NEW_KINDS = {"p": "a", "q": "i", "m": "s"}
STEP_KINDS = ("c", "k", "n")


def decode(custom_id: str) -> Decoded | None:
    """Read a custom id this module made (or an earlier release made); None for anything
    else (or malformed)."""
    if not custom_id.startswith(PREFIX):
        return None
    parts = custom_id[len(PREFIX) :].split(":", 3)
    try:
        kind = parts[0]
        sid = int(parts[1])
        if kind in ("h", "x", "r", "l", "u") and len(parts) == 2:
            return Decoded(kind, sid)
        if kind == "f" and len(parts) == 4:
            token = parts[2]
            if not token or len(token) > 30 or parts[3] not in PHASE_WORDS:
                return None
            return Decoded("f", sid, token=token, notation=parts[3])
        if kind in STEP_KINDS and len(parts) == 4:
            token = parts[2]
            if not token or len(token) > 30:
                return None
            return Decoded(kind, sid, token=token, path=decode_path(parts[3]))
        if kind in NEW_KINDS:
            token = parts[2]
            if not token or len(token) > 30:
                return None
            if kind == "m" and len(parts) == 3:
                return Decoded("s", sid, token=token)
            if kind == "p" and len(parts) == 4:
                return Decoded("a", sid, notation=parts[3], token=token)
            if kind == "q" and len(parts) == 4:
                return Decoded("i", sid, index=int(parts[3]), token=token)
            return None
        version = int(parts[2])
        if kind == "s" and len(parts) == 3:
            return Decoded("s", sid, version)
        if kind == "a" and len(parts) == 4:
            return Decoded("a", sid, version, notation=parts[3])
        if kind == "i" and len(parts) == 4:
            return Decoded("i", sid, version, index=int(parts[3]))
    except (IndexError, ValueError, ChoiceError):
        return None
    return None


def label_for(notation: str) -> str:
    return notation if len(notation) <= 80 else notation[:79] + "…"


def choice_view(
    session_id: int, token: str, choices: Sequence[str], *, hand_button: bool = False,
    aids: Sequence[str] = (), phase_pass: str = "",
) -> discord.ui.View | None:
    """Buttons (up to 20 choices) or a select menu (up to 25) for a small decision;
    ``token`` is the ``prompt_token`` of the question the choices answer. ``aids`` adds the
    help buttons of the decision, in the last row: "explain" ("What do these do?") and
    "rules" ("Rules for this step"); they answer for the clicker's question when clicked.
    ``phase_pass`` ("phase", "round"; "" for none) adds "Pass for the rest of this phase".

    Returns None when there is nothing to show: no aid, and nothing to choose or too much
    for components (the player then types ``/play`` with autocomplete).
    """
    view = discord.ui.View(timeout=None)
    if 0 < len(choices) <= MAX_BUTTONS and all(len(c) <= 80 for c in choices):
        for i, c in enumerate(choices):
            style = discord.ButtonStyle.secondary if c.lower() == "pass" else discord.ButtonStyle.primary
            view.add_item(
                discord.ui.Button(
                    label=label_for(c), style=style, custom_id=action_id(session_id, token, c, i)
                )
            )
    elif 0 < len(choices) <= MAX_OPTIONS:
        options = [
            discord.SelectOption(label=label_for(c), value=option_value(c, i)) for i, c in enumerate(choices)
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=select_id(session_id, token), placeholder="Choose…", options=options
            )
        )
    for what in aids:
        view.add_item(
            discord.ui.Button(
                label=AIDS[what][1], style=discord.ButtonStyle.secondary, custom_id=aid_id(session_id, what)
            )
        )
    if phase_pass and len(view.children) < MAX_BUTTONS + 5 - hand_button:
        _add_phase_pass(view, session_id, token, phase_pass, None)
    if hand_button:
        view.add_item(
            discord.ui.Button(
                label="My hand", style=discord.ButtonStyle.secondary, custom_id=hand_id(session_id)
            )
        )
    return view if view.children else None


def log_id(session_id: int) -> str:
    return f"{PREFIX}l:{session_id}"


def with_log_button(view: discord.ui.View | None, session_id: int) -> discord.ui.View:
    """``view`` (or a new one) with a "Full log" button, which shows the clicker the game's
    log as they may read it (ephemeral); left out when the view has no room (Discord: 25
    components in 5 rows)."""
    view = view if view is not None else discord.ui.View(timeout=None)
    if len(view.children) < MAX_BUTTONS + 5:
        with contextlib.suppress(ValueError):
            view.add_item(
                discord.ui.Button(label="Full log", style=discord.ButtonStyle.secondary, custom_id=log_id(session_id))
            )
    return view


def hand_view(session_id: int) -> discord.ui.View:
    """The public "My hand" button: each player who clicks sees their own hand, privately."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="My hand & choices", style=discord.ButtonStyle.secondary, custom_id=hand_id(session_id)
        )
    )
    return view


MAX_STEP_BUTTONS = 10
"""Options of a step shown as buttons (two rows); more get a select menu."""
MAX_BUTTON_LABEL = 40
PASS_WORDS = ("pass", "done", "end")


def step_id(kind: str, session_id: int, token: str, path: Sequence[int]) -> str:
    """The custom id of a component of the step at ``path`` (``kind`` c, k or n)."""
    return f"{PREFIX}{kind}:{session_id}:{token}:{encode_path(path)}"


def _style(option: Option) -> discord.ButtonStyle:
    word = option.label.strip().lower()
    if option.action is not None and word == "pass":
        return discord.ButtonStyle.secondary
    if option.action is not None and word in PASS_WORDS:
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


def step_view(
    session_id: int, token: str, step: ChoiceStep, *, hand_button: bool = False, aids: Sequence[str] = (),
    phase_pass: str = "",
) -> discord.ui.View:
    """The components of one step of a question's choices (``games.core.choices``): buttons
    for a few short options, a select menu otherwise, a multi-select menu where several items
    are picked (with a "none" button when none may be), and Back after the first step.
    ``token`` is the ``prompt_token`` of the question; ``aids`` the help buttons of the
    decision, as for ``choice_view``; ``phase_pass`` ("phase", "round") adds "Pass for the
    rest of this phase" to the first step."""
    view = discord.ui.View(timeout=None)
    path = step.path
    if step.multi is not None:
        m = step.multi
        view.add_item(
            discord.ui.Select(
                custom_id=step_id("k", session_id, token, path),
                placeholder=cut_label(f"{step.chosen}: pick {_how_many(m.min_values, m.max_values)}"),
                min_values=max(1, m.min_values),
                max_values=m.max_values,
                options=[discord.SelectOption(label=cut_label(item), value=str(i)) for i, item in enumerate(m.items)],
            )
        )
        if m.min_values == 0:
            view.add_item(
                discord.ui.Button(label=cut_label(f"{step.chosen}, nothing more"), style=discord.ButtonStyle.secondary,
                                  custom_id=step_id("n", session_id, token, path), row=1)
            )
    elif len(step.options) <= MAX_STEP_BUTTONS and all(len(o.label) <= MAX_BUTTON_LABEL for o in step.options):
        for i, option in enumerate(step.options):
            view.add_item(
                discord.ui.Button(label=option.label, style=_style(option),
                                  custom_id=step_id("c", session_id, token, (*path, i)), row=i // 5)
            )
    else:
        view.add_item(
            discord.ui.Select(
                custom_id=step_id("k", session_id, token, path),
                placeholder=cut_label(f"{step.chosen} …" if step.chosen else "Choose what to do"),
                options=[
                    discord.SelectOption(
                        label=o.label, value=str(i),
                        description=o.description if o.description and o.description != o.label else None,
                    )
                    for i, o in enumerate(step.options)
                ],
            )
        )
    if step.back:
        view.add_item(
            discord.ui.Button(label="Back", style=discord.ButtonStyle.secondary,
                              custom_id=step_id("c", session_id, token, path[:-1]), row=2)
        )
    for what in aids:
        view.add_item(
            discord.ui.Button(label=AIDS[what][1], style=discord.ButtonStyle.secondary,
                              custom_id=aid_id(session_id, what), row=2)
        )
    if phase_pass and not path:
        _add_phase_pass(view, session_id, token, phase_pass, 2)
    if hand_button:
        view.add_item(
            discord.ui.Button(label="My hand", style=discord.ButtonStyle.secondary,
                              custom_id=hand_id(session_id), row=2)
        )
    return view


def cut_label(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _how_many(lo: int, hi: int) -> str:
    if lo == hi:
        return str(lo)
    return f"up to {hi}" if lo <= 1 else f"{lo} to {hi}"


def step_to_json(step: ChoiceStep) -> dict[str, object]:
    """A step as JSON (kept with a queued direct message until it is sent)."""
    out: dict[str, object] = {"path": list(step.path), "chosen": step.chosen,
                              "options": [[o.label, o.action, o.description] for o in step.options]}
    if step.multi is not None:
        out["multi"] = [list(step.multi.items), step.multi.min_values, step.multi.max_values]
    return out


def step_from_json(data: dict[str, object]) -> ChoiceStep:
    from games.core.choices import Multi

    multi = data.get("multi")
    return ChoiceStep(
        tuple(data.get("path") or ()),  # type: ignore[arg-type]
        str(data.get("chosen") or ""),
        tuple(Option(str(o[0]), o[1], str(o[2])) for o in data.get("options") or ()),  # type: ignore[union-attr, index]
        Multi(tuple(multi[0]), int(multi[1]), int(multi[2])) if multi else None,  # type: ignore[index]
    )
