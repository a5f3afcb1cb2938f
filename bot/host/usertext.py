"""Text a user types that others will read (a faction preference, an option value).

``clean`` normalises it once, when it comes in: Unicode NFKC (full-width and styled letters
become plain ones), line breaks and tabs become spaces, control, format (zero-width, bidi
overrides), private-use and unassigned characters are removed, runs of spaces collapse, and
the result is refused when empty or longer than the cap. What is stored and compared is
this form, so "Rome\\u200b" and "ｒｏｍｅ" are "Rome" and "rome". How it is then written into a
message (Discord escapes markdown and mentions) is the adapter's ``Names.text``.

``unreadable`` tells typed input that held bytes no text could be read from (a terminal
whose input is not UTF-8 hands them over as lone surrogates), so that it is refused with a
plain message instead of echoing ``\\udcff`` escapes back; ``readable`` shows such text with
U+FFFD in their place.
"""

from __future__ import annotations

import re
import unicodedata

from .errors import InvalidOptionError

MAX_FACTION_CHARS = 40
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}
_SPACES = re.compile(r"\s+")


def clean(text: str, *, limit: int = MAX_FACTION_CHARS, what: str = "A name") -> str:
    """``text`` normalised as described in the module docstring.

    Raises InvalidOptionError when nothing is left, or more than ``limit`` characters are
    (the message says how many)."""
    text = _normalise(text)
    if not text:
        raise InvalidOptionError(f"{what} needs at least one visible character.")
    if len(text) > limit:
        raise InvalidOptionError(f"{what} can be at most {limit} characters long; this one has {len(text)}.")
    return text


UNREADABLE = (
    "Your input had characters that could not be read (bytes that are not UTF-8 text); "
    "nothing was done. Type it again."
)
"""The answer to input ``unreadable`` finds, in every adapter."""


def _lone(ch: str) -> bool:
    """A lone surrogate: what a byte that is not UTF-8 becomes when read with ``surrogateescape``."""
    return "\ud800" <= ch <= "\udfff"


def unreadable(text: str) -> bool:
    """Whether ``text`` holds characters no text could be read from: lone surrogates or U+FFFD."""
    return "\ufffd" in text or any(map(_lone, text))


def readable(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD, safe to print and to show."""
    return "".join("\ufffd" if _lone(ch) else ch for ch in text)


def same(a: str, b: str) -> bool:
    """Whether two typed names are the same once normalised, ignoring case (names of any
    length; two with nothing visible are the same)."""
    return _normalise(a).casefold() == _normalise(b).casefold()


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if ch.isspace() else ch for ch in text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _DROPPED)
    return _SPACES.sub(" ", text).strip()
