"""Barbarian Hordes notation: what players type, what the log shows.

Grammar (case, accents and unambiguous prefixes of names are accepted)::

    pick <nation>                      draft or re-entry
    move between <nation> and <nation> Migratory (Fate Phase)
    play <card>                        G, D, V, Q, X, P, I cards...
    play <S card> on <nation>          look at a hand
    play <K card> on <leader card>     negate a Leader card
    play <M card> between <nation> and <nation>
    attack <nation>
    fight [with <card>, <card>, sacrifice]
    support <nation> with [<n> armies][, <card>...]
    block with <card>
    discard <card>, <card>
    done | pass

``parse(format_action(a)) == a`` for every legal action.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from games.core import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidNotationError,
    Rng,
)
from games.core.english import count
from games.core.errors import list_words
from games.core.memo import last_state
from games.core.notation import (
    completions,
    fold,
    match_name,
    shorten,
    unfinished,
    unique_prefix,
    unknown_command,
)
from games.core.refusal import asked, cannot

from .model import Attack, Block, Discard, Done, Fight, MoveSeat, Pass, PickNation, PlayCard, State, Support

if TYPE_CHECKING:
    from .queries import Queries as BarbarianHordes

VERBS = ("pick", "move", "play", "attack", "fight", "support", "block", "discard", "done", "pass")
VERB_KINDS = {
    "pick": {"PickNation"},
    "move": {"MoveSeat"},
    "play": {"PlayCard"},
    "attack": {"Attack"},
    "fight": {"Fight"},
    "support": {"Support"},
    "block": {"Block"},
    "discard": {"Discard"},
}
DONE_WORDS = {"done", "end", "stay", "skip", "finish", "next"}


def _name(game: BarbarianHordes, s: State, seat: int) -> str:
    return game.nation_name(s, seat)


def _cards(game: BarbarianHordes, cards: tuple[str, ...]) -> str:
    return ", ".join(game.card(c).display for c in cards)


def format_action(game: BarbarianHordes, s: State, a: Any) -> str:
    """``a`` in notation, using nation and card names as the players see them."""
    if isinstance(a, PickNation):
        return f"pick {game.data.nation(a.nation).name}"
    if isinstance(a, MoveSeat):
        return f"move between {_name(game, s, a.right)} and {_name(game, s, a.left)}"
    if isinstance(a, PlayCard):
        text = f"play {game.card(a.card).display}"
        if a.negate:
            text += f" on {game.card(a.negate).display}"
        elif a.target is not None:
            text += f" on {_name(game, s, a.target)}"
        if a.left is not None and a.right is not None:
            text += f" between {_name(game, s, a.right)} and {_name(game, s, a.left)}"
        return text
    if isinstance(a, Attack):
        return f"attack {_name(game, s, a.target)}"
    if isinstance(a, Fight):
        parts = [game.card(c).display for c in a.cards] + (["sacrifice"] if a.sacrifice else [])
        return "fight" + (" with " + ", ".join(parts) if parts else "")
    if isinstance(a, Support):
        parts = ([_armies(a.armies)] if a.armies else []) + [game.card(c).display for c in a.cards]
        return f"support {_name(game, s, a.side)} with " + ", ".join(parts)
    if isinstance(a, Block):
        return f"block with {game.card(a.card).display}"
    if isinstance(a, Discard):
        return f"discard {_cards(game, a.cards)}"
    if isinstance(a, Done):
        return "done"
    if isinstance(a, Pass):
        return "pass"
    raise TypeError(f"not a Barbarian Hordes action: {a!r}")


def _nations(game: BarbarianHordes, s: State, seats: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {_name(game, s, x): x for x in seats}


def _hand_cards(game: BarbarianHordes, s: State, seat: int, ok=lambda card: True) -> dict[str, str]:
    return {game.card(c).display: c for c in s.players[seat].hand if ok(game.card(c))}


def _split_list(text: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\+|;|\band\b)\s*", text)
    return [p for p in (x.strip() for x in parts) if p]


def _match_card(text: str, names: dict[str, str], what: str = "card") -> str:
    """Card names may themselves contain "and" ("Loot & Burn"): match the whole
    text first, then as a name."""
    return match_name(text, names, what)


def _between(game: BarbarianHordes, s: State, seat: int, text: str) -> tuple[int, int]:
    """``<nation> and <nation>`` -> (left, right) among the legal seat moves."""
    moves = game.seat_moves(s, seat)
    if not moves:
        raise IllegalActionError("There is no other place to sit now.")
    nations = _nations(game, s, [x for x in s.seating if x != seat])
    m = re.match(r"^(.*?)\s+and\s+(.*)$", text)
    if not m:
        raise InvalidNotationError("Say where to sit: between <nation> and <nation>.")
    a = match_name(m.group(1), nations, "nation")
    b = match_name(m.group(2), nations, "nation")
    for left, right in moves:
        if {left, right} == {a, b}:
            return left, right
    options = [f"between {_name(game, s, r)} and {_name(game, s, lft)}" for lft, r in moves]
    raise IllegalActionError(
        f"{_name(game, s, a)} and {_name(game, s, b)} are not next to each other (or that is where you sit); "
        f"choose: {list_words(options)}."
    )


def parse(game: BarbarianHordes, s: State, seat: int, text: str) -> Any:
    """Read ``text`` as an action of ``seat`` and check that it is legal now.

    Raises
    ------
    NotYourTurnError
        The seat is not being asked for input.
    InvalidNotationError, AmbiguousActionError
        The text cannot be read, or names more than one thing.
    IllegalActionError
        The action is readable but not allowed now.
    """
    game.require_turn(s, seat)
    action = _read(game, s, seat, text)
    game.apply(s, seat, action, Rng(0, 0))  # legality check only; the result is dropped
    return action


def _read(game: BarbarianHordes, s: State, seat: int, text: str) -> Any:
    raw = text.strip()
    words = raw.split(None, 1)
    if not words:
        raise InvalidNotationError(f"Type an action; {hint(game, s, seat)}")
    full = unique_prefix(raw, candidates(game, s, seat, limit=10**6, prefix=raw))
    if full is not None and fold(full) != fold(raw):
        return _read(game, s, seat, full)
    verb = fold(words[0])
    known = (*VERBS, *DONE_WORDS, "help", "hand", "status", "quit", "log", "undo")
    if verb and verb not in known:
        starts = [v for v in VERBS if v.startswith(verb)]
        if len(starts) == 1:  # a command word cut short: "att" is attack
            verb = starts[0]
    rest = words[1].strip() if len(words) > 1 else ""
    legal_kinds = _legal_kinds(game, s, seat)
    wanted = VERB_KINDS.get(verb)
    try:
        return _read_verb(game, s, seat, verb, rest, words[0], legal_kinds)
    except (InvalidNotationError, AmbiguousActionError) as e:
        # "play" alone, "fight with": the legal actions it is the start of (support and discard
        # are answered with their form instead: their lists are long)
        more = unfinished(raw, _offered(game, s, seat, raw)) if verb not in ("support", "discard") else None
        if more is not None:
            raise more from None
        if wanted and not wanted & legal_kinds:
            raise IllegalActionError(cannot(game, s, seat, verb, hint(game, s, seat))) from None
        held = _not_held(game, s, seat, e.message)
        if held:
            raise IllegalActionError(f"{held}; {hint(game, s, seat)}") from None
        raise


def _offered(game: BarbarianHordes, s: State, seat: int, raw: str) -> list[str]:
    """The legal actions ``raw`` may be the start of: the candidates, and during a war's
    commitments the S cards one may play then (R12)."""
    texts = candidates(game, s, seat, limit=10**6, prefix=raw)
    if s.war is not None and s.war.stage == "commit":
        texts = [*texts, *(format_action(game, s, a) for a in game.s_plays(s, seat))]
    return texts


def _not_held(game: BarbarianHordes, s: State, seat: int, message: str) -> str | None:
    """For "No card called 'X' here" where X is a card of the game: why it cannot be used,
    "Famine is not in your hand" or "Famine cannot be used for this", else None."""
    m = re.match(r"No card called '(.*)' here", message)
    if not m:
        return None
    named = {fold(c.display): c for c in game.data.cards.values()}
    card = named.get(fold(m.group(1)))
    if card is None:
        return None
    if card.id not in s.players[seat].hand:
        return f"{card.display} is not in your hand (your hand: {count(len(s.players[seat].hand), 'card')})"
    return f"{card.display} ({card.types}: {card.text}) cannot be used for this now (Card List Notation)"


def _read_pick(game: BarbarianHordes, s: State, rest: str) -> PickNation:
    """``pick <nation>`` (The Nations; re-entry after being wiped out): a nation offered now, or
    a refusal that says why the named nation is not (taken, or not its tier's turn yet)."""
    pool = game.nation_pool(s, reentry=s.phase == "reentry")
    if s.phase not in ("draft", "reentry"):
        raise IllegalActionError(
            "Nations are picked at the start, or when re-entering after being wiped out."
        )
    names = {game.data.nation(n).name: n for n in pool}
    try:
        return PickNation(nation=match_name(rest, names, "nation"))
    except InvalidNotationError as unknown:
        # a nation of the game that is not offered: say why (taken, or not its tier's turn yet)
        every = {n.name: n.id for n in game.data.nations.values()}
        try:
            other = match_name(rest, every, "nation")
        except (InvalidNotationError, AmbiguousActionError):
            raise unknown from None
        offered = f"choose from: {list_words(sorted(names))}."
        name = game.data.nation(other).name
        if other in s.nations_played:
            raise IllegalActionError(f"The {name} are already in the game; {offered}") from None
        if s.phase != "draft" or s.variant == "three-player":
            raise unknown from None
        raise IllegalActionError(
            f"The {name} cannot be picked yet: each player picks one nation, starting with the Primary "
            f"nations, then secondary, then tertiary, then quaternary (The Nations); {offered}"
        ) from None


def _read_verb(
    game: BarbarianHordes, s: State, seat: int, verb: str, rest: str, word: str, legal_kinds: frozenset[str]
) -> Any:
    if verb in ("help", "hand", "status", "quit", "log", "undo"):
        raise InvalidNotationError(f"Type {verb} on its own; {hint(game, s, seat)}")
    if verb in DONE_WORDS or verb == "pass":
        if rest:
            raise InvalidNotationError(f"{verb} takes nothing after it; type just {verb}.")
        if "Pass" in legal_kinds and (verb == "pass" or "Done" not in legal_kinds):
            return Pass()
        if "Done" in legal_kinds:
            return Done()
        if verb == "pass" and s.war is not None and s.war.stage == "commit":
            return Pass()  # a combatant's pass: the war's rules refuse it and say why (CONQUEST PHASE)
        raise IllegalActionError(cannot(game, s, seat, f"say {verb}", hint(game, s, seat)))
    if verb == "pick":
        return _read_pick(game, s, rest)
    if verb == "move":
        body = re.sub(r"^between\s+", "", rest, flags=re.I)
        left, right = _between(game, s, seat, body)
        return MoveSeat(left=left, right=right)
    if verb == "attack":
        return Attack(target=_attack_target(game, s, seat, rest))
    if verb == "play":
        return _read_play(game, s, seat, rest)
    if verb == "fight":
        body = re.sub(r"^with\b\s*", "", rest, flags=re.I)
        if rest and not body:  # "fight with" and nothing after it
            raise InvalidNotationError(f"Fight with which card? {hint(game, s, seat)}")
        names = _hand_cards(game, s, seat)
        cards, sacrifice = [], False
        for part in _split_parts(body, names):
            if fold(part) in ("sacrifice", "sac", "berserk"):
                sacrifice = True
            else:
                cards.append(_match_card(part, names))
        return Fight(cards=tuple(cards), sacrifice=sacrifice)
    if verb == "support":
        m = re.match(r"^(.*?)\s+with\s+(.*)$", rest, flags=re.I)
        if not m:
            raise InvalidNotationError("Say: support <nation> with <n> armies, <card>...")
        side = match_name(m.group(1), _nations(game, s, [x for x in game.living(s) if x != seat]), "nation")
        names = _hand_cards(game, s, seat)
        armies, cards = 0, []
        for part in _split_parts(m.group(2), names):
            am = re.match(r"^(-?\d+)(\s+arm(y|ies)|\s+army tokens?)?$", part.strip(), flags=re.I)
            if am:
                armies += int(am.group(1))
            else:
                cards.append(_match_card(part, names))
        return Support(side=side, armies=armies, cards=tuple(cards))
    if verb == "block":
        body = re.sub(r"^with\s+", "", rest, flags=re.I)
        return Block(card=_match_card(body, _hand_cards(game, s, seat, lambda c: c.has("P") or c.has("I"))))
    if verb == "discard":
        names = _hand_cards(game, s, seat)
        return Discard(cards=tuple(_match_card(p, names) for p in _split_parts(rest, names)))
    now = {c.split()[0] for c in candidates(game, s, seat, limit=10**6)}
    raise unknown_command(f"{word} {rest}", now, VERBS, asked(game, s, seat))


def _attack_target(game: BarbarianHordes, s: State, seat: int, rest: str) -> int:
    """The nation ``rest`` names for ``attack``: one of those ``seat`` may attack now, else
    another living nation (the game says why it may not be attacked). Naming one's own
    nation, or no nation, raises InvalidNotationError listing the nations one may attack."""
    targets = _nations(game, s, list(game.attack_targets(s)) if s.active == seat else [])
    may = f"you may attack: {list_words(sorted(targets))}." if targets else "you may attack no nation now."
    try:
        return match_name(rest, targets, "nation")
    except (InvalidNotationError, AmbiguousActionError) as e:
        others = _nations(game, s, list(game.living(s)))
        try:
            target = match_name(rest, others, "nation")
        except (InvalidNotationError, AmbiguousActionError):
            if isinstance(e, AmbiguousActionError):
                raise
            if not fold(rest):
                raise InvalidNotationError(f"Name the nation to attack; {may}") from None
            raise InvalidNotationError(f"No nation called {shorten(rest)!r} here; {may}") from None
        if target == seat:
            raise InvalidNotationError(f"{_name(game, s, seat)} is your own nation; {may}") from None
        return target


def _split_parts(body: str, names: dict[str, str]) -> list[str]:
    """Split a list of card names on commas/plus/and, keeping names that contain
    "and" or "&" ("Loot & Burn", "Barbarians vs Barbarians") whole."""
    protected = body
    keep: dict[str, str] = {}
    for i, name in enumerate(sorted(names, key=len, reverse=True)):
        pattern = _name_pattern(name)
        if pattern.search(protected):
            token = f"\x00{i}\x00"
            keep[token] = name
            protected = pattern.sub(token, protected)
    parts = _split_list(protected)
    out = []
    for p in parts:
        for token, name in keep.items():
            p = p.replace(token, name)
        out.append(p)
    return out


@functools.lru_cache(maxsize=512)
def _name_pattern(name: str) -> re.Pattern[str]:
    """A card name as typed in a list: any case, "and" for "&", any spaces between words."""
    return re.compile(re.escape(name).replace(r"\&", r"(?:&|and)").replace(r"\ ", r"\s+"), re.I)


def _read_play(game: BarbarianHordes, s: State, seat: int, rest: str) -> PlayCard:
    names = _hand_cards(game, s, seat)
    if not names:
        raise IllegalActionError("You have no cards in hand.")
    low = rest
    between = None
    m = re.match(r"^(.*?)\s+between\s+(.*)$", low, flags=re.I)
    if m:
        low, between = m.group(1), m.group(2)
    # " on " may split the card from its target; card names never end in " on"
    card_text, target_text = low, None
    try:
        card = _match_card(low, names)
    except (InvalidNotationError, AmbiguousActionError):
        pieces = re.split(r"\s+on\s+", low, flags=re.I)
        card = None
        for i in range(len(pieces) - 1, 0, -1):
            head, tail = " on ".join(pieces[:i]), " on ".join(pieces[i:])
            try:
                card = _match_card(head, names)
            except InvalidNotationError:
                continue
            card_text, target_text = head, tail
            break
        if card is None:
            card = _match_card(card_text, names)
    c = game.card(card)
    if c.has("M"):
        if between is None:
            raise InvalidNotationError(f"Say where to sit: play {c.display} between <nation> and <nation>.")
        left, right = _between(game, s, seat, between)
        return PlayCard(card=card, left=left, right=right)
    if c.has("K"):
        leaders = _negatable(game, s, seat)
        if target_text is None:
            if len(leaders) == 1:
                return PlayCard(card=card, negate=next(iter(leaders.values())))
            if not leaders:
                raise IllegalActionError("There is no Leader card to negate now.")
            raise AmbiguousActionError(
                f"Which Leader card? play {c.display} on {list_words(sorted(leaders))}.",
                [f"play {c.display} on {n}" for n in sorted(leaders)],
            )
        return PlayCard(card=card, negate=match_name(target_text, leaders, "Leader card"))
    if c.has("S"):
        others = _nations(game, s, [x for x in game.living(s) if x != seat])
        if target_text is None:
            raise InvalidNotationError(
                f"Whose hand? play {c.display} on <nation>: {list_words(sorted(others))}."
            )
        return PlayCard(card=card, target=match_name(target_text, others, "nation"))
    if target_text is not None:
        raise InvalidNotationError(f"{c.display} takes no target; say: play {c.display}.")
    return PlayCard(card=card)


def _negatable(game: BarbarianHordes, s: State, seat: int) -> dict[str, str]:
    if s.war is not None and s.war.stage == "negate":
        return {game.card(c).display: c for c, owner in game.revealed_leaders(s) if owner != seat}
    if s.windows and s.windows[-1].kind == "negate":
        card = s.windows[-1].leader.card
        return {game.card(card).display: card}
    return {}


@last_state
def _legal_kinds(game: BarbarianHordes, s: State, seat: int) -> frozenset[str]:
    """Names of the action types legal for ``seat`` now (remembered for the last state:
    every typed action of a step asks)."""
    war = s.war
    if war is not None and war.stage == "commit":
        kinds = {"Fight"} if seat in (war.attacker, war.defender) else {"Pass", "Support"}
        kinds |= {"PlayCard"} if game.s_plays(s, seat) else set()  # S cards: "play anytime" (R12)
        return frozenset(kinds | ({"Block"} if game.blocks(s, seat) else set()))
    return frozenset(type(a).__name__ for a in game.legal_actions(s, seat))


def _army_counts(armies: int) -> list[int]:
    """The army counts offered: every count from 1 to ``armies`` up to 12 armies, else
    1, 2, 3, 5, 10, half and all (any count up to ``armies`` may be typed)."""
    if armies <= 12:
        return list(range(1, armies + 1))
    return sorted({n for n in (1, 2, 3, 5, 10, armies // 2, armies) if 1 <= n <= armies})


def _armies(n: int) -> str:
    return count(n, "army", "armies")


def candidates(game: BarbarianHordes, s: State, seat: int, limit: int = 60, prefix: str = "") -> list[str]:
    """Legal actions in notation, most useful first. Small decisions list every
    legal action; a war commitment lists each card alone, all cards together and a
    few army counts (any other count may be typed; ``prefix`` "support Huns with 7"
    offers 7)."""
    war = s.war
    if war is None or war.stage != "commit":
        actions = game.legal_actions(s, seat)
        if len(actions) <= limit:
            return _legal_texts(game, s, seat)
        return [format_action(game, s, a) for a in actions[:limit]]
    if seat in (war.attacker, war.defender):
        return _fight_texts(game, s, seat)
    out = ["pass"]
    armies = s.players[seat].armies
    typed = re.match(r"^\s*support\s+(.+?)\s+with\s+(\d+)", prefix, flags=re.I)
    sides, blocks = _support_parts(game, s, seat)
    for side_name, cards in sides:
        counts = _army_counts(armies)
        if typed and fold(side_name).startswith(fold(typed.group(1))) and int(typed.group(2)) <= armies:
            counts = [int(typed.group(2))]
        out += [f"support {side_name} with {_armies(n)}" for n in counts if n > 0]
        out += cards
    return out + list(blocks)


@last_state
def _legal_texts(game: BarbarianHordes, s: State, seat: int) -> list[str]:
    """Every legal action of ``seat`` in notation, outside a war's commitments
    (remembered for the last state: every typed action of a step is read against them)."""
    return [format_action(game, s, a) for a in game.legal_actions(s, seat)]


@last_state
def _fight_texts(game: BarbarianHordes, s: State, seat: int) -> list[str]:
    """A combatant's commitments offered (``candidates``), remembered for the last state."""
    cards = game.war_cards(s, seat, seat)
    names = [game.card(c).display for c in cards]
    out = ["fight"]
    out += [f"fight with {n}" for n in names]
    if len(names) > 1:
        out.append("fight with " + ", ".join(names))
    if "berserkers" in game.abilities(s, seat) and s.players[seat].armies > 0:
        out += ["fight with sacrifice"] + ([f"fight with {', '.join(names)}, sacrifice"] if names else [])
    return out + [f"block with {game.card(c).display}" for c in game.blocks(s, seat)]


@last_state
def _support_parts(
    game: BarbarianHordes, s: State, seat: int
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...]]:
    """For a supporter's ``candidates``: each side's nation name and its card supports, and
    the blocks; remembered for the last state (the army counts offered depend on the text)."""
    war = s.war
    assert war is not None
    sides = tuple(
        (
            _name(game, s, side),
            tuple(
                f"support {_name(game, s, side)} with {game.card(c).display}"
                for c in game.war_cards(s, seat, side)
            ),
        )
        for side in (war.attacker, war.defender)
    )
    return sides, tuple(f"block with {game.card(c).display}" for c in game.blocks(s, seat))


def hint(game: BarbarianHordes, s: State, seat: int) -> str:
    """A short "what is legal now" for error messages."""
    return "legal now: " + list_words(candidates(game, s, seat, limit=40), limit=10) + "."


def complete(game: BarbarianHordes, s: State, seat: int, prefix: str) -> list[str]:
    """Autocomplete: legal actions in notation starting with ``prefix``, most useful
    first (every one for small decisions; callers cut the list to what they show)."""
    if seat not in game.to_act(s):
        return []
    found = candidates(game, s, seat, limit=500, prefix=prefix)
    return completions(found, prefix, limit=len(found))
