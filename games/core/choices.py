"""Every legal action as a short sequence of choices (what, then where, then how many).

A seat's legal actions, in the game's notation, are read as a trie over their words:
``support Huns with 3 armies, Cavalry`` is the path ``support`` → ``Huns`` → ``with`` →
``3`` → ``armies,`` → ``Cavalry``. A ``ChoiceTree`` shows that trie one step at a time,
each step small enough for a chat client's components:

- chains with a single continuation are collapsed (``Western Roman Empire with`` is one
  choice, not four), and a step with a single way on is skipped;
- a step shows as many complete actions as fit: a branch is opened in place while the
  step stays within ``MAX_OPTIONS`` (so a prompt of up to 25 actions is one click);
- a step with more than ``MAX_OPTIONS`` choices groups them into ranges (``Achaea – Gallia``);
- where the rule picks several things at once (discard 2 cards, which dice to reroll) —
  every continuation of a branch is a list of items and the lists are exactly every
  selection of ``min_values`` to ``max_values`` of the same items — that branch is one
  multi-select step;
- the last choice of a path always names exactly one legal action.

A path is the tuple of option indices chosen from the first step on (``ChoiceTree.step``
and ``ChoiceTree.resolve``); a multi-select step is answered with the indices of the items
picked. Everything is derived from the legal actions alone, so the same position gives the
same steps in any process (a button can carry its path).

Nothing here knows about Discord; the limits are Discord's (25 options in a menu, 80
characters on a label, 100 in a menu option's description).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import ceil

MAX_OPTIONS = 25
"""Options in one step (a select menu holds 25)."""
MAX_LABEL = 80
"""Characters in an option's label."""
MAX_DESCRIPTION = 100
"""Characters in an option's description (the complete action, for a menu)."""
MAX_MULTI_LEAVES = 1 << 16
"""Leaves under a branch above which it is not checked for a multi-select."""


GLUE = "\x00"
"""Marks a word that continues the previous one without a space (a path's next step)."""


def words(notation: str) -> tuple[str, ...]:
    """The words of a notation, a list's comma being a word of its own and each step of a
    hyphenated path a word of its own: ``"discard Famine, Plague"`` → ``("discard",
    "Famine", ",", "Plague")``, ``"move 4: 1 Rome-Italia"`` → ``("move", "4:", "1", "Rome",
    GLUE + "-Italia")``."""
    out: list[str] = []
    for w in notation.split(" "):
        comma = w.endswith(",") and len(w) > 1
        if comma:
            w = w[:-1]
        first, *steps = w.split("-") if "-" in w[1:-1] and "--" not in w else [w]
        out.append(first)
        out += [GLUE + "-" + p for p in steps]
        if comma:
            out.append(",")
    return tuple(out)


def join(tokens: Sequence[str]) -> str:
    """The text of ``words``' tokens (``join(words(n)) == n`` for a notation without
    doubled spaces or a space before a comma)."""
    text = ""
    for t in tokens:
        if t.startswith(GLUE):
            text += t[1:]
        else:
            text = text + t if t == "," or not text else f"{text} {t}"
    return text


def short(text: str, limit: int = MAX_LABEL) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class Option:
    """One choice of a single-choice step.

    ``label`` (at most 80 characters) is what the button or menu option reads: the words it
    adds to what was chosen before, ending in "…" when more choices follow. ``action`` is
    the complete notation when choosing it plays exactly one legal action, else None.
    ``description`` (at most 100 characters) is the text chosen so far including this
    option, for a menu option's second line."""

    label: str
    action: str | None
    description: str = ""


@dataclass(frozen=True)
class Multi:
    """A multi-select step: pick between ``min_values`` and ``max_values`` of ``items``
    (labels, at most 25, at most 80 characters each; equal items are told apart by their
    position)."""

    items: tuple[str, ...]
    min_values: int
    max_values: int


@dataclass(frozen=True)
class ChoiceStep:
    """What is asked at ``path``: ``chosen`` is the text chosen so far ("" at the first
    step), ``options`` the single choices (empty for a multi-select step), ``multi`` the
    multi-select (None otherwise). ``back`` is whether there is an earlier step."""

    path: tuple[int, ...]
    chosen: str
    options: tuple[Option, ...] = ()
    multi: Multi | None = None

    @property
    def back(self) -> bool:
        return bool(self.path)


class ChoiceError(ValueError):
    """A path or a selection that the tree does not have (an outdated or forged click)."""


# ---------------------------------------------------------------- the trie


class _Node:
    __slots__ = ("words", "children", "action", "count", "_multi", "_entries")

    def __init__(self, words: tuple[str, ...]) -> None:
        self.words = words
        self.children: dict[str, _Node] = {}
        self.action: str | None = None
        self.count = 0
        self._multi: _MultiInfo | None | bool = False  # False: not computed yet
        self._entries: list[_Entry] | None = None

    def leaves(self) -> Iterable[str]:
        """The actions under this node, in pre-order (its own first, then each child's in
        turn), walked with a stack rather than nested generators (a leaf deep down would
        pass through one generator per level)."""
        stack = [self]
        while stack:
            node = stack.pop()
            if node.action is not None:
                yield node.action
            if node.children:
                stack.extend(reversed(node.children.values()))

    def text(self) -> str:
        return join(self.words)


@dataclass(frozen=True)
class _MultiInfo:
    slots: tuple[str, ...]  # one per item, equal values repeated
    sep: str
    lo: int
    hi: int
    by_key: dict[tuple[str, ...], str] = field(hash=False, compare=False)


@dataclass
class _Entry:
    """An option of a step: a leaf (``action``), a branch (``node``) or a range (``group``)."""

    action: str | None = None
    node: _Node | None = None
    group: list[_Entry] | None = None

    def first_words(self) -> tuple[str, ...]:
        if self.action is not None:
            return words(self.action)
        if self.node is not None:
            return self.node.words
        return self.group[0].first_words()  # type: ignore[index]

    def contains(self, tokens: tuple[str, ...]) -> bool:
        if self.action is not None:
            return self.action == join(tokens)
        if self.node is not None:
            return tokens[: len(self.node.words)] == self.node.words
        return any(e.contains(tokens) for e in self.group or ())


def _sub_multisets(counts: Sequence[int], lo: int, hi: int) -> int:
    """How many sub-multisets of a multiset with these multiplicities have lo..hi items."""
    poly = [1]
    for c in counts:
        nxt = [0] * (len(poly) + c)
        for i, v in enumerate(poly):
            if v:
                for k in range(c + 1):
                    nxt[i + k] += v
        poly = nxt
    return sum(poly[lo : hi + 1])


def _detect_multi(node: _Node) -> _MultiInfo | None:
    """The multi-select a branch is, if every continuation is a list of items and the lists
    are exactly every selection of lo..hi of the same items.

    A separator is given up as soon as the items seen so far could not be one step (more
    than ``MAX_OPTIONS`` slots, or a label over ``MAX_LABEL``): the counts only grow as more
    continuations are read, so most branches are told apart in their first few dozen leaves
    instead of after reading all of them."""
    if node.count < 3 or node.count > MAX_MULTI_LEAVES:
        return None
    prefix = node.text()
    cut = len(prefix)
    for sep in (", ", " "):
        keyed: dict[tuple[str, ...], str] = {}
        most: dict[str, int] = {}
        slots = 0
        ok = True
        for leaf in node.leaves():
            rest = leaf[cut:]
            if rest and rest[0] not in " ,":
                return None
            rest = rest.lstrip(", ")
            items = tuple(rest.split(sep)) if rest else ()
            if "" in items:
                ok = False
                break
            key = tuple(sorted(items))
            if key in keyed:
                ok = False
                break
            keyed[key] = leaf
            counts = Counter(items) if len(set(items)) < len(items) else dict.fromkeys(items, 1)
            for item, n in counts.items():
                had = most.get(item, 0)
                if n > had:
                    if not had and len(item) > MAX_LABEL:
                        ok = False
                    slots += n - had
                    most[item] = n
            if not ok or slots > MAX_OPTIONS:
                ok = False
                break
        if not ok or slots < 2:
            continue
        sizes = [len(k) for k in keyed]
        lo, hi = min(sizes), max(sizes)
        if hi < 2 or _sub_multisets(list(most.values()), lo, hi) != len(keyed):
            continue
        ordered = [item for item in most for _ in range(most[item])]
        return _MultiInfo(tuple(ordered), sep, lo, hi, keyed)
    return None


def _multi(node: _Node) -> _MultiInfo | None:
    if node._multi is False:
        node._multi = _detect_multi(node)
    return node._multi  # type: ignore[return-value]


def _collapse(node: _Node) -> _Entry:
    """The entry a child stands for: down its chain of single continuations."""
    while node.action is None and len(node.children) == 1 and _multi(node) is None:
        node = next(iter(node.children.values()))
    if node.count == 1:
        return _Entry(action=next(node.leaves()))
    return _Entry(node=node)


def _raw_entries(node: _Node) -> list[_Entry]:
    """A branch's own options: itself when it is an action, then each continuation."""
    out = [_Entry(action=node.action)] if node.action is not None and node.children else []
    out += [_collapse(child) for child in node.children.values()]
    return out


def _entries(node: _Node) -> list[_Entry]:
    """A branch's options, all its branches opened in place while they fit in one step (so
    the options of one step are alike), grouped into ranges when they do not fit."""
    if node._entries is not None:
        return node._entries
    entries = _raw_entries(node)
    while True:  # open every branch of the step at once, while the step still fits
        opened: list[_Entry] = []
        for e in entries:
            opened += _raw_entries(e.node) if e.node is not None and _multi(e.node) is None else [e]
        if len(opened) == len(entries) or len(opened) > MAX_OPTIONS:
            break
        entries = opened
    node._entries = _group(entries)
    return node._entries


def _group(entries: list[_Entry]) -> list[_Entry]:
    """At most MAX_OPTIONS entries: as many as can stay single stay first, the rest are
    gathered into consecutive ranges (nested when there are very many)."""
    while len(entries) > MAX_OPTIONS:
        n = len(entries)
        singles = MAX_OPTIONS - 1
        while singles > 0 and singles + ceil((n - singles) / MAX_OPTIONS) > MAX_OPTIONS:
            singles -= 1
        rest = entries[singles:]
        size = ceil(len(rest) / (MAX_OPTIONS - singles)) if singles < MAX_OPTIONS else len(rest)
        groups = [rest[i : i + size] for i in range(0, len(rest), size)]
        entries = entries[:singles] + [g[0] if len(g) == 1 else _Entry(group=_group(g)) for g in groups]
    return entries


# ---------------------------------------------------------------- the tree


class ChoiceTree:
    """The steps leading to each of a seat's legal actions.

    ``notations`` are the legal actions in the game's notation (as ``format_action`` writes
    them; duplicates ignored). Raises ValueError when there are none."""

    def __init__(self, notations: Iterable[str]) -> None:
        self.root = _Node(())
        self.actions: list[str] = []
        seen: set[str] = set()
        for n in notations:
            if n in seen:
                continue
            seen.add(n)
            self.actions.append(n)
            node = self.root
            node.count += 1
            for w in words(n):
                nxt = node.children.get(w)
                if nxt is None:
                    nxt = node.children[w] = _Node((*node.words, w))
                node = nxt
                node.count += 1
            node.action = n
        if not self.actions:
            raise ValueError("no legal action to choose from")

    def __len__(self) -> int:
        return len(self.actions)

    # -------------------------------------------------------------- walking

    def _descend(self, entry: _Entry) -> _Entry:
        """Skip steps that offer a single way on."""
        while True:
            if entry.group is not None and len(entry.group) == 1:
                entry = entry.group[0]
                continue
            if entry.node is not None and _multi(entry.node) is None:
                inner = _entries(entry.node)
                if len(inner) == 1 and inner[0].action is None:
                    entry = inner[0]
                    continue
            return entry

    def _options_of(self, entry: _Entry) -> list[_Entry]:
        if entry.group is not None:
            return entry.group
        assert entry.node is not None
        return _entries(entry.node)

    def _walk(self, path: Sequence[int]) -> tuple[_Entry, str, str]:
        """(the entry ``path`` reaches, the text chosen there, the text chosen a step before)."""
        entry = self._descend(_Entry(node=self.root))
        chosen = prev = self._chosen(entry, "")
        for depth, i in enumerate(path):
            if entry.action is not None or (entry.node is not None and _multi(entry.node) is not None
                                             and entry.group is None):
                raise ChoiceError(f"the choice after step {depth} does not exist")
            options = self._options_of(entry)
            if not 0 <= i < len(options):
                raise ChoiceError(f"there is no option {i + 1} at step {depth + 1}")
            entry = self._descend(options[i])
            prev, chosen = chosen, self._chosen(entry, chosen)
        return entry, chosen, prev

    @staticmethod
    def _chosen(entry: _Entry, before: str) -> str:
        if entry.node is not None and entry.group is None:
            return entry.node.text()
        if entry.action is not None:
            return entry.action
        return before

    def step(self, path: Sequence[int] = ()) -> ChoiceStep:
        """The step reached by ``path``. Raises ChoiceError for a path the tree does not
        have, or one that already names an action (``resolve`` it instead)."""
        entry, chosen, prev = self._walk(path)
        if entry.action is not None:
            raise ChoiceError("that path already names an action")
        if entry.node is not None and entry.group is None:
            info = _multi(entry.node)
            if info is not None:
                return ChoiceStep(tuple(path), chosen, multi=Multi(info.slots, info.lo, info.hi))
        base = chosen
        entries = self._options_of(entry)
        options = tuple(self._option(e, base, prev) for e in entries)
        if len(options) > 1 and all(e.group is None for e in entries):
            chosen, options = _shared_words(chosen, options)
        return ChoiceStep(tuple(path), chosen, options=options)

    def _option(self, e: _Entry, base: str, prev: str = "") -> Option:
        if e.group is not None:
            first, last = self._option(e.group[0], base, prev), self._option(e.group[-1], base, prev)
            a, b = first.label.rstrip("…").rstrip(), last.label.rstrip("…").rstrip()
            return Option(short(f"{short(a, 38)} – {short(b, 38)}"), None,
                          short(f"{base} {a} … {b}".strip(), MAX_DESCRIPTION))
        full = e.action if e.action is not None else e.node.text()  # type: ignore[union-attr]
        rest = full[len(base) :].lstrip(", ") if base and full.startswith(base) else full
        if not rest:  # the step's own text is an action: read it as the words the last step added
            rest = (full[len(prev) :].lstrip(", ") if prev and full.startswith(prev) else "") or full
        if e.action is None:
            return Option(short(rest + " …" if len(rest) < MAX_LABEL - 2 else rest), None,
                          short(full + " …", MAX_DESCRIPTION))
        return Option(short(rest), e.action, short(full, MAX_DESCRIPTION))

    def resolve(self, path: Sequence[int], picks: Sequence[int] | None = None) -> str | None:
        """The action ``path`` (and, at a multi-select step, the item indices ``picks``)
        names, or None when more choices are needed. Raises ChoiceError for a path or
        selection the tree does not have (picks out of range, repeated, too few or too many)."""
        entry, _, _ = self._walk(path)
        if entry.action is not None:
            if picks:
                raise ChoiceError("nothing is picked at this step")
            return entry.action
        info = _multi(entry.node) if entry.node is not None and entry.group is None else None
        if picks is None:
            return None
        if info is None:
            raise ChoiceError("this step is not a multi-select")
        if len(set(picks)) != len(picks) or any(not 0 <= p < len(info.slots) for p in picks):
            raise ChoiceError("the items picked are not among those offered")
        if not info.lo <= len(picks) <= info.hi:
            raise ChoiceError(f"pick between {info.lo} and {info.hi} items")
        key = tuple(sorted(info.slots[p] for p in picks))
        action = info.by_key.get(key)
        if action is None:  # pragma: no cover - the detection checked every selection
            raise ChoiceError("that selection is not a legal action")
        return action

    def path_to(self, notation: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """The path (and the picks at a final multi-select step, else None) that leads to
        ``notation``. Raises ChoiceError when it is not one of the tree's actions."""
        tokens = words(notation)
        if notation not in set(self.actions):
            raise ChoiceError(f"{notation!r} is not a legal action here")
        path: list[int] = []
        entry = self._descend(_Entry(node=self.root))
        while entry.action is None:
            if entry.node is not None and entry.group is None:
                info = _multi(entry.node)
                if info is not None:
                    rest = notation[len(entry.node.text()) :].lstrip(", ")
                    items = rest.split(info.sep) if rest else []
                    free = list(enumerate(info.slots))
                    picks = []
                    for item in items:
                        k = next(j for j, (_, s) in enumerate(free) if s == item)
                        picks.append(free.pop(k)[0])
                    return tuple(path), tuple(sorted(picks))
            options = self._options_of(entry)
            i = next((k for k, e in enumerate(options) if e.contains(tokens)), None)
            if i is None:  # pragma: no cover - every action is under the root
                raise ChoiceError(f"{notation!r} is not reachable")
            path.append(i)
            entry = self._descend(options[i])
        return tuple(path), None

    def clicks(self, notation: str) -> int:
        """How many choices reach ``notation``: one per step, a multi-select counting one."""
        path, picks = self.path_to(notation)
        return len(path) + (1 if picks is not None else 0)


def _shared_words(chosen: str, options: tuple[Option, ...]) -> tuple[str, tuple[Option, ...]]:
    """Words every option's label starts with move to the step's heading (``discard
    Famine``, ``discard Plague`` read ``Famine``, ``Plague`` under "discard"), for short
    labels; the descriptions keep the whole text."""
    split = [o.label.split(" ") for o in options]
    k = 0
    while all(len(w) > k + 1 and w[k] == split[0][k] for w in split):
        k += 1
    if not k:
        return chosen, options
    heading = " ".join([*([chosen] if chosen else []), *split[0][:k]])
    return heading, tuple(Option(" ".join(w[k:]), o.action, o.description) for w, o in zip(split, options, strict=True))


def encode_path(path: Sequence[int]) -> str:
    """A path as text for a component id: ``"3.0.12"`` ("" for the first step)."""
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> tuple[int, ...]:
    """The path ``encode_path`` wrote. Raises ChoiceError when malformed."""
    if not text:
        return ()
    try:
        path = tuple(int(p) for p in text.split("."))
    except ValueError:
        raise ChoiceError("not a path") from None
    if any(not 0 <= i < MAX_OPTIONS for i in path) or len(path) > 40:
        raise ChoiceError("not a path")
    return path


def noted(step: ChoiceStep, notes: dict[str, str]) -> ChoiceStep:
    """``step`` with each option label and multi-select item that contains a name of
    ``notes`` followed by its note in brackets ("Pilum Volley (6) …"), within ``MAX_LABEL``;
    the options still lead where they did (a click carries indices, not labels)."""
    if not notes:
        return step
    names = sorted(notes, key=len, reverse=True)

    def note(label: str) -> str:
        more = label.endswith("…")
        core = label[:-1].rstrip() if more else label
        for name in names:
            if core.endswith(name) or core == name:
                core = f"{core} ({notes[name]})"
                break
        else:
            return label
        return short(f"{core} …" if more else core)

    options = tuple(Option(note(o.label), o.action, o.description) for o in step.options)
    multi = step.multi
    if multi is not None:
        multi = Multi(tuple(note(i) for i in multi.items), multi.min_values, multi.max_values)
    return ChoiceStep(step.path, step.chosen, options, multi)
