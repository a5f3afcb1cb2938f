"""Reading the longer clauses of a typed action: Promised Land's redirect, combat decisions, Combat and Power Cards."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from games.core import (
    IllegalActionError,
    InvalidNotationError,
)
from games.core.errors import GameError, list_words
from games.core.notation import fold, match_name, shorten

from ..model import (
    Commit,
    Crucify,
    Elder,
    Path,
    PlayPower,
    Prepare,
    Redirect,
    Reveal,
    State,
    UseGrace,
)
from .format import _redirect_starts
from .names import _card_in, _faction, _items, _path, _piece_parts, _territory

if TYPE_CHECKING:
    from ..queries import Queries as SoulOfTheEmpire


def _parse_redirect(g: SoulOfTheEmpire, s: State, card: str, body: str) -> Redirect:
    """``to <territory>`` (all the units), a bare territory (the same), or items
    ``<units> [<start>-]<territory>``: the start may be left out when the units left one
    territory of the blue region (RULINGS.md R22)."""
    usage = (
        "redirect to <territory>, or per unit: redirect 2 Samaria, 1 Galilaea "
        "(redirect 2 Jerusalem-Samaria when units left several territories)"
    )
    m = re.match(r"^to\s+(.+)$", body, re.I)
    if m:
        return Redirect(card=card, territory=_territory(g, m.group(1)))
    items = _items(body)
    if not items:
        raise InvalidNotationError(f"Say where the units go: {usage}.")
    split = re.compile(r"\s*(?:-|>|→)\s*")
    if len(items) == 1 and not re.match(r"^\d+\s", items[0]) and not split.search(items[0]):
        return Redirect(card=card, territory=_territory(g, items[0]))
    starts = _redirect_starts(s)
    sends = []
    for item in items:
        m = re.match(r"^(\d+)\s+(?:to\s+)?(.+)$", item, re.I)
        count, where = (int(m.group(1)), m.group(2)) if m else (1, item)
        if count < 1:
            raise InvalidNotationError("Send at least 1 unit to each territory named.")
        parts = [p for p in split.split(where) if p.strip()]
        if len(parts) == 2:
            t0, t1 = _territory(g, parts[0]), _territory(g, parts[1])
        elif len(parts) == 1:
            if not starts:
                raise IllegalActionError("There is no movement to redirect now.")
            if len(starts) > 1:
                raise InvalidNotationError(
                    "Units left "
                    + list_words([g.tname(t) for t in starts])
                    + f": name where each group came from, e.g. redirect {count} {g.tname(starts[0])}-"
                    f"{g.tname(_territory(g, parts[0]))}."
                )
            t0, t1 = starts[0], _territory(g, parts[0])
        else:
            raise InvalidNotationError(f"Not understood: {shorten(item)!r}; {usage}.")
        sends.append((t0, t1, count))
    return Redirect(card=card, sends=g.merge_sends(sends))


def _parse_decision(g: SoulOfTheEmpire, s: State, verb: str, rest: str) -> Any:
    """The combat decisions: Elder (before the choice and after the reveal), Pharaoh's
    Fate, Grace, Crucify (RULINGS.md R9, R16)."""
    c = s.combat
    if c is None or c.stage not in ("elder", "decide"):
        raise IllegalActionError(
            f"There is no combat decision to make now ({verb} is only asked during a combat)."
        )
    word = fold(rest).strip()
    if verb == "play":
        word = ""
        verb = "elder"
    if verb == "elder":
        if not word:
            return Elder(choice="play")
        aliases = {
            "mine": "mine",
            "my": "mine",
            "own": "mine",
            "theirs": "theirs",
            "their": "theirs",
            "other": "theirs",
            "none": "none",
            "neither": "none",
            "no": "none",
        }
        if word not in aliases:
            raise InvalidNotationError(
                f"elder mine (-1 to your own Combat Value), elder theirs (-1 to the other side's) or "
                f"elder none; not {shorten(rest)!r}."
            )
        return Elder(choice=aliases[word])  # type: ignore[arg-type]
    if verb in ("reveal", "grace"):
        if word:
            raise InvalidNotationError(f"{verb} takes nothing after it; not {shorten(rest)!r}.")
        return Reveal() if verb == "reveal" else UseGrace()
    if not word:
        raise InvalidNotationError(
            "crucify <faction>: the faction whose captured unit returns to its supply, e.g. crucify Jewish."
        )
    return Crucify(faction=_faction(g, s, rest))


def _parse_commit(g: SoulOfTheEmpire, s: State, f: str, rest: str) -> Commit:
    cards = {g.data.combat[c].name: c for c in g.combat_cards(s, f)} if s.combat else {}
    if not cards:
        raise IllegalActionError("You are not choosing a Combat Card now.")
    if re.search(r"\s(?:with|conscript)\s", f" {rest} ", re.I):
        raise IllegalActionError(
            "Power Cards and Conscription come before the Combat Cards are chosen (play <card>, "
            "conscript <units>); now commit <Combat Card> alone."
        )
    return Commit(card=match_name(rest, cards, "Combat Card"))


def _parse_prepare(g: SoulOfTheEmpire, s: State, f: str, verb: str, rest: str) -> Prepare:
    """Before the Combat Cards: ``play <card>``, ``conscript <units> [<faction>], ...`` or both
    (``play Praetorian Guard and conscript 2 Jewish``); ``conscript 2`` takes the largest captured
    groups (RULINGS.md R9, R16)."""
    text = f"{verb} {rest}".strip()
    power_text, sep, units_text = _split_conscript(text)
    power = None
    if power_text:
        m = re.match(r"^play\s+(.+)$", power_text, re.I)
        if not m:
            raise InvalidNotationError("play <combat Power Card>, conscript <units>, or both joined by 'and'.")
        power = _card_in(g, list(s.factions[g.hand_owner(f)].hand), m.group(1), "Power Card")
    units: list[tuple[str, int]] = []
    if sep:
        items = _items(units_text)
        if len(items) == 1 and re.fullmatch(r"\d+", items[0].strip()):
            units = list(g.conscript_default(s, int(items[0])))
        else:
            for item in items:
                m = re.match(r"^(\d+)\s+(.+)$", item.strip())
                if not m:
                    raise InvalidNotationError("conscript <units> <faction>, ... e.g. conscript 1 Jewish, 1 Coalition.")
                units.append((_faction(g, s, m.group(2)), int(m.group(1))))
    merged: dict[str, int] = {}
    for x, n in units:
        merged[x] = merged.get(x, 0) + n
    return Prepare(power=power, conscript=tuple(sorted(merged.items())))


def _split_conscript(text: str) -> tuple[str, str, str]:
    """``text`` cut at its ``conscript`` clause: (the part before, "conscript" or "", the units)."""
    m = re.search(r"(?:^|\s+and\s+)conscript(?:\s+|$)", text, re.I)
    if not m:
        return text, "", ""
    return text[: m.start()].strip(), "conscript", text[m.end() :].strip()


def _parse_play(g: SoulOfTheEmpire, s: State, f: str, rest: str) -> PlayPower:
    head, _, body = rest.partition(":")
    territory = target = None
    m = re.search(r"\s+on\s+(\S+)\s*$", head, re.I)
    if m:
        target = _faction(g, s, m.group(1))
        head = head[: m.start()]
    m = re.search(r"\s+in\s+(.+)$", head, re.I)
    cards = list(s.factions[f].hand) + list(s.factions[f].durable)
    if m:
        try:
            card = _card_in(g, cards, head, "Power Card")
        except GameError:
            card = _card_in(g, cards, head[: m.start()], "Power Card")
            territory = _territory(g, m.group(1))
    else:
        card = _card_in(g, cards, head, "Power Card")
    paths: tuple[Path, ...] = ()
    territories: list[str] = []
    values: tuple[int, ...] = ()
    dice: list[int] = []
    items = _items(body)
    if items and all(re.fullmatch(r"[\d\s]+", x) for x in items):
        values = tuple(int(v) for x in items for v in x.split())
    elif items and all(re.fullmatch(r"\s*\d+(?:\s+outside)?\s+to\s+\d+\s*", x, re.I) for x in items):
        # Advanced Culture: <die> [outside] to <value>, the dice chosen by the player
        mine = s.factions[f].dice
        picked = []
        for x in items:
            m = re.fullmatch(r"\s*(\d+)(\s+outside)?\s+to\s+(\d+)\s*", x, re.I)
            old, outside, new = int(m.group(1)), bool(m.group(2)), int(m.group(3))
            i = next(
                (
                    i
                    for i, d in enumerate(mine)
                    if d.place == "unspent" and d.value == old and d.seq != outside and i not in dice
                ),
                None,
            )
            if i is None:
                have = ", ".join(f"{d.value}{'' if d.seq else ' outside'}" for d in mine if d.place == "unspent")
                raise IllegalActionError(
                    f"No Unspent {old}{' outside the Dice Sequence' if outside else ''}; your Unspent dice: "
                    + (have or "none")
                    + "."
                )
            dice.append(i)
            picked.append(new)
        values = tuple(picked)
    elif items and any(re.search(r"\S\s*(?:-|>|→)\s*\S", x) for x in items):
        paths = tuple(_path(g, x) for x in items)
    else:
        for x in items:
            if re.search(r"\s+in\s+", x, re.I):
                who, where = _piece_parts(g, s, x)
                territories.append(f"{where}/{who}")
            else:
                territories.append(_territory(g, x))
    return PlayPower(
        card=card,
        territory=territory,
        territories=tuple(territories),
        target=target,
        values=values,
        paths=paths,
        dice=tuple(dice),
    )
