"""Rules help that quotes its source: the rule text's own sentences and the rulings on them.

Each game ships its rule text word for word in ``data/rules.md``, cut into sections at the
text's own headings (``## Conquest Phase``), and its interpretations in ``RULINGS.md``
(``## R13. Title`` or ``**R13. Title**`` entries, each quoting the sentences it rests on).
``/game rules <topic>`` and the terminal's ``rules <topic>`` answer from here:

- a section's title (``conquest``, ``event phase``): its sentences, with the rulings whose
  quoted sentences stand in that section;
- a ruling number (``R13``): the ruling, and the sections its quotes come from;
- a mark or term of the game's glossary (``D1.cz``, ``Dice Sequence``): its meaning, then
  the text's sentences with it;
- any other word (``combat``, a card's name): the sentences of the text that contain it,
  each under its section, and the rulings that mention it; a card (nation, ability...)
  named in full leads with its text from the game's data (games.core.explain).

A ruling interprets a section when one of its quotations (a ``"..."`` of at least four
words) is found in that section (its heading and text), or when its "Rests on" line names
the section by its title ("Rests on. The Game; General Councils.").
"""

from __future__ import annotations

import functools
import math
import re
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .game import Game
from .glossary import glossary_rows_for
from .notation import fold, shorten

_HEADING = re.compile(r"^(#{2,3}) (\S.*)$")
_RULING = re.compile(r"^(?:#{2,3} |\*\*)(R\d+)\.\s*(.*?)(?:\*\*|$)(.*)$")
_QUOTE = re.compile(r"[\"“]([^\"“”]*)[\"”]")
_RESTS_ON = re.compile(r"Rests on(?:\.\*\*|:|\.)", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"“(•\-–A-Z0-9])")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have", "he", "his", "if", "in", "into", "is", "it", "its", "may", "more", "no", "not", "of", "on", "one", "or", "own", "say", "says", "that", "the", "their", "them", "then", "there", "they", "this", "to", "up", "with", "you", "your", "or", "what", "when", "which", "who", "will"]
)


@dataclass(frozen=True)
class Section:
    """One section of the rule text: its ``title`` as printed, its ``parent`` section's title
    ("" for a top-level one) and its ``text`` word for word."""

    title: str
    parent: str
    text: str

    @property
    def where(self) -> str:
        """The section's name for a citation: "Conquest Phase", "The Rules › Attacking"."""
        return f"{self.parent} › {self.title}" if self.parent else self.title

    def sentences(self) -> list[str]:
        """The section's sentences, in order, each stripped; a list item or a table's row
        is one entry whatever its sentences."""
        out: list[str] = []
        for line in self.text.split("\n"):
            # a table's row ("11\tRemove 3 Follower cards. The ...") or a list item ("• Gospel (Start).
            # Durable: ...") is one entry: its sentences mean nothing apart
            if "\t" in line or re.match(r"\s*[•\-–] ", line):
                out.append(line.strip())
                continue
            carry = ""
            for piece in _SENTENCE.split(line):
                piece = piece.strip()
                if not piece:
                    continue
                piece = f"{carry} {piece}".strip() if carry else piece
                # "a.", "1." (a numbered point) and "e.g." do not end a sentence
                if re.fullmatch(r"[\w]{1,2}\.", piece) or re.search(r"\be\.g\.$|\bi\.e\.$", piece):
                    carry = piece
                    continue
                carry = ""
                out.append(piece)
            if carry:
                out.append(carry)
        return out


@dataclass(frozen=True)
class Ruling:
    """One ruling of RULINGS.md: ``number`` ("R13"), ``title`` and its ``text`` (question,
    decision and the sentences it rests on, as written)."""

    number: str
    title: str
    text: str

    def quotes(self) -> list[str]:
        """The rule text's sentences the ruling quotes (at least four words each)."""
        quoted = [q for q in _QUOTE.findall(self.text) if len(q) >= 12]
        parts = (p.strip(" .,;") for q in quoted for p in re.split(r"\.\.\.|…|\[[^]]*\]", q))
        return [p for p in parts if len(p.split()) >= 4]

    def rests_on(self) -> str:
        """The text of the ruling's "Rests on" line(s) (what it interprets), "" when it has none."""
        m = _RESTS_ON.search(self.text)
        return self.text[m.end():].strip() if m else ""


@dataclass(frozen=True)
class Rulebook:
    """A game's rule text in sections and its rulings."""

    sections: tuple[Section, ...]
    rulings: tuple[Ruling, ...]

    def sections_of(self, ruling: Ruling) -> list[Section]:
        """The sections holding a sentence the ruling quotes (heading included: "DEFEAT Any
        player..."), or named by title in its "Rests on" line, in the text's order."""
        quotes = [_flat(q) for q in ruling.quotes()]
        named = f" {_flat(ruling.rests_on())} "
        return [
            s
            for s in self.sections
            if any(q and q in _flat(f"{s.title} {s.text}") for q in quotes) or f" {_flat(s.title)} " in named
        ]

    def rulings_on(self, section: Section) -> list[Ruling]:
        """The rulings that quote a sentence of ``section``."""
        return [r for r in self.rulings if section in self.sections_of(r)]

    def topics(self) -> list[str]:
        """What ``rules <topic>`` knows by name: the sections' titles, then "R13 Title" for
        each ruling (for autocompletion)."""
        return [s.title for s in self.sections] + [f"{r.number} {r.title}".strip() for r in self.rulings]


def topics(game: Game) -> list[str]:
    """Every topic to suggest for ``rules <topic>``: the sections, the words of the game's
    ``[[topic]]`` entries ("combat"), then the rulings."""
    book = rulebook(game)
    words = [w for e in _steps_file(type(game).__module__).get("topic", ()) for w in e["words"]]
    return [*(s.title for s in book.sections), *words, *(f"{r.number} {r.title}".strip() for r in book.rulings)]


def _flat(text: str) -> str:
    return " ".join(_WORD.findall(fold(text.replace("’", "'"))))


def parse_rules(text: str) -> tuple[Section, ...]:
    """The sections of a ``rules.md`` text: ``##`` sections and their ``###`` subsections
    (the file's ``#`` title and the lines before the first section are left out)."""
    out: list[Section] = []
    title, parent, level, body = "", "", 0, []
    top = ""

    def close() -> None:
        if title:
            out.append(Section(title, parent, "\n".join(body).strip()))

    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            close()
            level, title, body = len(m.group(1)), m.group(2).strip(), []
            if level == 2:
                top, parent = title, ""
            else:
                parent = top
            continue
        if title:
            body.append(line)
    close()
    return tuple(out)


def parse_rulings(text: str) -> tuple[Ruling, ...]:
    """The rulings of a RULINGS.md text, in order (both the ``## R1. Title`` and the
    ``**R1. Title**`` forms); each runs to the next ruling or heading."""
    out: list[Ruling] = []
    current: tuple[str, str, list[str]] | None = None

    def close() -> None:
        if current is not None:
            number, title, body = current
            out.append(Ruling(number, title.strip().rstrip("."), "\n".join(body).strip()))

    for line in text.splitlines():
        m = _RULING.match(line)
        if m:
            close()
            current = (m.group(1), m.group(2), [m.group(3).strip()] if m.group(3).strip() else [])
            continue
        if line.startswith("#"):
            close()
            current = None
            continue
        if current is not None:
            current[2].append(line)
    close()
    return tuple(out)


@functools.cache
def _steps_file(module: str) -> dict:
    package = module.rpartition(".")[0] or module
    path = Path(sys.modules[package].__file__ or "").parent / "data" / "steps.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        return tomllib.load(f)


@dataclass(frozen=True)
class Step:
    """One ``[[step]]`` entry of a game's ``data/steps.toml``: the ``prompt`` pattern (a regular
    expression searched in the prompt's text, any case), the ``sections`` that govern it (exact
    titles) and ``quote``, patterns choosing the sentences of those sections a "Rules for this
    step" answer quotes (none: the sections' sentences from the first). A ``(?P<card>...)`` group
    in ``prompt`` adds the sentences naming what it matched ("Collect Tribute")."""

    prompt: re.Pattern[str]
    sections: tuple[str, ...]
    quote: tuple[re.Pattern[str], ...] = ()


@functools.cache
def _steps(module: str) -> tuple[Step, ...]:
    """The ``[[step]]`` entries of the game's ``data/steps.toml``, in order."""
    return tuple(
        Step(re.compile(e["prompt"], re.I), tuple(e["sections"]), tuple(re.compile(q, re.I) for q in e.get("quote", ())))
        for e in _steps_file(module).get("step", ())
    )


def _named_in(entry: Step | None, prompt: str) -> str:
    """What the entry's ``(?P<card>...)`` group names in ``prompt`` (folded), "" otherwise: the
    sentences naming it are quoted too (a Power Card's own line)."""
    m = entry.prompt.search(prompt) if entry is not None else None
    return fold(m.group("card")).strip() if m is not None and "card" in m.groupdict() and m.group("card") else ""


def step_entry(game: Game, prompt: str) -> Step | None:
    """The first ``[[step]]`` entry of the game's ``data/steps.toml`` whose pattern is found in
    ``prompt``; None when none is."""
    return next((e for e in _steps(type(game).__module__) if e.prompt.search(prompt)), None)


@functools.cache
def _aliases(module: str) -> dict[str, tuple[str, ...]]:
    """The ``[[topic]]`` entries of ``data/steps.toml``: a word players use that the text
    words otherwise ("combat" for a war) -> the section titles it means."""
    return {fold(w): tuple(e["sections"]) for e in _steps_file(module).get("topic", ()) for w in e["words"]}


@functools.cache
def _load(module: str) -> Rulebook:
    package = module.rpartition(".")[0] or module
    folder = Path(sys.modules[package].__file__ or "").parent
    rules = folder / "data" / "rules.md"
    rulings = folder / "RULINGS.md"
    return Rulebook(
        parse_rules(rules.read_text(encoding="utf-8")) if rules.is_file() else (),
        parse_rulings(rulings.read_text(encoding="utf-8")) if rulings.is_file() else (),
    )


def rulebook(game: Game) -> Rulebook:
    """The game's rule text (``data/rules.md``) and rulings (``RULINGS.md``); empty parts
    when the game ships none."""
    return _load(type(game).__module__)


# ---------------------------------------------------------------- answering a topic


def _quote(lines: list[str]) -> str:
    return "\n".join(f"> {line}" for line in lines)


def _ruling_lines(rulings: list[Ruling], limit: int = 6) -> list[str]:
    if not rulings:
        return []
    shown = ", ".join(f"{r.number} ({r.title})" for r in rulings[:limit])
    more = f" and {len(rulings) - limit} more" if len(rulings) > limit else ""
    return [f"Rulings on it: {shown}{more}. Type `rules R<number>` for one in full."]


def answer_section(book: Rulebook, section: Section) -> str:
    """A section quoted in full, with the rulings on it."""
    said = section.sentences()
    lines = [f"**{section.where}** (rule text)", *([_quote(said)] if said else [])]
    subs = [s.title for s in book.sections if s.parent == section.title]
    if subs:
        lines.append("Its parts: " + ", ".join(subs) + ".")
    lines += _ruling_lines(book.rulings_on(section))
    return "\n".join(lines)


def answer_ruling(book: Rulebook, ruling: Ruling) -> str:
    """A ruling in full, and the sections of the text it interprets."""
    lines = [f"**{ruling.number}. {ruling.title}** (ruling)", ruling.text]
    where = book.sections_of(ruling)
    if where:
        lines.append("It interprets: " + ", ".join(s.where for s in where) + " (`rules <section>` quotes it).")
    return "\n".join(lines)


def answer_word(book: Rulebook, text: str, limit: int = 12) -> str | None:
    """The text's sentences containing ``text`` (every word of it), under their sections
    (each sentence once: a section may print one twice), and the rulings that mention it;
    None when nothing does."""
    words = _WORD.findall(fold(text))
    if not words:
        return None

    def has(s: str) -> bool:
        flat = f" {_flat(s)} "
        return all(re.search(rf" {re.escape(w)}\w*", flat) for w in words)

    lines: list[str] = []
    count = 0
    for section in book.sections:
        # a sentence the text prints twice in one section is quoted once
        found = list(dict.fromkeys(_window(s, words) for s in section.sentences() if has(s)))
        if not found:
            continue
        if count >= limit:
            count += len(found)
            continue
        found = found[: limit - count]
        count += len(found)
        lines += [f"**{section.where}**", _quote(found)]
    rulings = [r for r in book.rulings if has(r.title) or has(r.text)]
    if not lines and not rulings:
        return None
    head = f"The rule text on {text.strip()!r}:"
    if count > limit:
        head += f" (the first {limit} of {count} sentences; name a section to read it whole)"
    if not lines:
        head = f"The rule text has no sentence with {text.strip()!r}; the rulings do."
    return "\n".join([head, *lines, *_ruling_lines(rulings)])


def _window(sentence: str, words: list[str], width: int = 240) -> str:
    """A long sentence cut to about ``width`` characters around the first of ``words``."""
    if len(sentence) <= width:
        return sentence
    m = re.search(rf"\b{re.escape(words[0])}", fold(sentence))
    start = max(0, (m.start() if m else 0) - width // 3)
    end = start + width
    return ("…" if start else "") + sentence[start:end].strip() + ("…" if end < len(sentence) else "")


def find_section(book: Rulebook, text: str) -> Section | None:
    """The section ``text`` names: its exact title (any case, no accents), else the only
    title starting with it, else the only title containing it as a word; None otherwise."""
    key = " ".join(_WORD.findall(fold(text)))
    if not key:
        return None
    titles = [(" ".join(_WORD.findall(fold(s.title))), s) for s in book.sections]
    for test in (
        lambda t: t == key,
        lambda t: t.startswith(key),
        lambda t: f" {key}" in f" {t}",
    ):
        hits = [s for t, s in titles if test(t)]
        if hits:
            return hits[0] if len(hits) == 1 else None
    return None


def find_ruling(book: Rulebook, text: str) -> Ruling | None:
    """The ruling ``text`` names by number ("R13", "r13", "13"), else None."""
    m = re.fullmatch(r"\s*[rR](\d{1,3})\b.*|\s*(\d{1,3})\s*", text)
    if not m:
        return None
    number = f"R{int(m.group(1) or m.group(2))}"
    return next((r for r in book.rulings if r.number == number), None)


def topic_text(game: Game, topic: str) -> str:
    """What ``rules <topic>`` answers: a ruling by number, a section by title, else every
    sentence of the text (and ruling) that contains the words; when nothing matches, says
    so and lists the sections. Markdown (bold headings, ``>`` quotes)."""
    book = rulebook(game)
    if not book.sections and not book.rulings:
        return f"{game.title} has no rule text to quote."
    ruling = find_ruling(book, topic)
    if ruling is not None:
        return answer_ruling(book, ruling)
    if re.fullmatch(r"\s*[rR]\d{1,6}\s*", topic):
        have = ", ".join(r.number for r in book.rulings)
        return (f"There is no ruling {topic.strip().upper()}: " + (f"the rulings are {have}." if have else
                f"{game.title} has no rulings.") + " Type `rules R<number>` for one in full.")
    marks = glossary_rows_for(game, topic)
    if marks:  # a mark printed on a card ("D1.cz") or a term of the game's glossary
        head = [f"{term.replace('`', '')} (glossary): {meaning.replace('`', '')}" for term, meaning in marks]
        found = answer_word(book, topic) if re.search(r"[a-z]{3}", fold(topic)) else None
        return "\n".join([*head, *([found] if found else [])])
    named = [e.render() for e in game.explain(topic) if fold(e.name) == fold(topic)]
    alias = _aliases(type(game).__module__).get(fold(topic).strip())
    if alias:
        return "\n\n".join(answer_section(book, s) for s in book.sections if s.title in alias)
    section = find_section(book, topic)
    if section is not None:
        also = ["", "Also by that name:", *named] if named else []
        return "\n".join([answer_section(book, section), *also])
    found = answer_word(book, topic)
    if named:
        return "\n".join([*named, found or "The rule text names it nowhere else."])
    if found is not None:
        return found
    titles = ", ".join(s.title for s in book.sections if not s.parent)
    return f"Nothing in the rule text or the rulings matches {shorten(topic.strip())!r}. Its sections: {titles}."


def step_sections(game: Game, prompt: str, choices: tuple[str, ...] = (), n: int = 2) -> list[Section]:
    """The sections of the rule text that govern a decision: those the game's
    ``data/steps.toml`` names for a prompt like it (all of them), else the ``n`` that best match: the prompt's words and the
    command words of its options, weighted by how rare each word is in the text (a word in a
    section's title counts three times). At most ``n``, best first; ``[]`` when none shares a
    word of weight."""
    book = rulebook(game)
    if not book.sections:
        return []
    entry = step_entry(game, prompt)
    if entry is not None:
        named = [s for title in entry.sections for s in book.sections if s.title == title]
        if named:
            return named
    docs = [
        (Counter(map(_stem, _WORD.findall(fold(s.title)))), Counter(map(_stem, _WORD.findall(fold(s.text)))))
        for s in book.sections
    ]
    df: Counter[str] = Counter()
    for title, body in docs:
        df.update(set(title) | set(body))
    words = [w for w in _WORD.findall(fold(prompt)) if w not in _STOP and len(w) > 2]
    words += [c.split()[0].lower() for c in choices if c.split()]
    wanted = Counter(map(_stem, words))
    scores = []
    for i, (title, body) in enumerate(docs):
        score = 0.0
        for w, k in wanted.items():
            idf = math.log(1 + len(docs) / (1 + df[w]))
            score += k * idf * (3 * min(title[w], 1) + min(body[w], 3) / 3)
        scores.append((score / math.sqrt(1 + sum(body.values()) / 50), i))
    scores.sort(key=lambda x: (-x[0], x[1]))
    return [book.sections[i] for score, i in scores[:n] if score > 0]


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


STEP_LIMIT = 1900
"""At most this many characters in a "Rules for this step" answer: one screen, and one
Discord message (2000) with room for its frame."""


def step_text(game: Game, prompt: str, choices: tuple[str, ...] = (), limit: int = STEP_LIMIT) -> str:
    """The "Rules for this step" answer: the sentences of the rule text that govern the decision
    ``prompt`` asks, each under its section (see :func:`step_sections`; the game's
    ``data/steps.toml`` chooses the sentences), with the rulings on those sections. At most
    ``limit`` characters: what does not fit is left out and named (``rules <section>`` reads a
    section whole). Markdown."""
    found = step_sections(game, prompt, choices)
    if not found:
        return f"No section of the rule text matches this step. `rules` shows the summary of {game.title}."
    book = rulebook(game)
    entry = step_entry(game, prompt)
    patterns = entry.quote if entry is not None else ()
    head = f"You are asked: {shorten(prompt, 300)}"
    tail = "`rules <section>` quotes a section whole; `rules R<number>` a ruling."
    blocks: list[str] = []

    def size(extra: list[str]) -> int:
        return len("\n\n".join([head, *blocks, *extra, tail]))

    for section in found:
        said = section.sentences()
        named = _named_in(entry, prompt)
        if patterns or named:
            wanted = [x for x in said if any(p.search(x) for p in patterns) or (named and named in fold(x))]
        else:
            wanted = said
        wanted = wanted or said
        note = _ruling_lines(book.rulings_on(section), limit=4)
        kept: list[str] = []
        for x in wanted:
            if size(["\n".join([section.where, _quote([*kept, x]), *note]) + " " * 40]) > limit:
                break
            kept.append(x)
        if not kept:
            continue
        whole = "" if len(kept) == len(said) else f", {len(kept)} of its {len(said)} sentences"
        blocks.append("\n".join([f"**{section.where}** (rule text{whole})", _quote(kept), *note]))
    if not blocks:
        return "\n\n".join([head, f"Read `rules {found[0].title}` for the rule text of this step."])
    return "\n\n".join([head, *blocks, tail])
