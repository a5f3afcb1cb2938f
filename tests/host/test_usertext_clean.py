"""Typed names others read (bot.host.usertext.clean and same): every kind of character the
module drops or turns into a space, the cap counted after cleaning, its message, and
comparison ignoring case."""

from __future__ import annotations

import pytest

from bot.host.errors import InvalidOptionError
from bot.host.usertext import MAX_FACTION_CHARS, clean, same


def test_spaces_of_every_kind_become_one_space_and_the_ends_are_trimmed():
    assert clean("\tWestern\r\n\u00a0Roman\u2003 Empire\x0b") == "Western Roman Empire"
    assert clean("a  \t b") == "a b"


def test_control_format_surrogate_private_and_unassigned_characters_are_dropped():
    # Cc, Cf (zero-width joiner, bidi override), Cs, Co, Cn
    assert clean("R\x00o\u200dm\u202ee\ud800\ue000\U0010fffd\u0378") == "Rome"
    assert clean("Ｒｏｍｅ") == "Rome" and clean("ﬁre") == "fire"  # NFKC


def test_the_cap_counts_the_cleaned_text():
    assert MAX_FACTION_CHARS == 40
    assert clean("x" * 40) == "x" * 40
    assert clean(" " + "x" * 40 + "\u200b ") == "x" * 40
    with pytest.raises(InvalidOptionError) as e:
        clean("x" * 41)
    assert str(e.value) == "A name can be at most 40 characters long; this one has 41."
    assert clean("abc", limit=3) == "abc"
    with pytest.raises(InvalidOptionError) as e:
        clean("abcd", limit=3, what="An option value")
    assert str(e.value) == "An option value can be at most 3 characters long; this one has 4."
    with pytest.raises(TypeError):  # the cap and the name are given by keyword only
        clean("abcd", 3)  # type: ignore[misc]


def test_nothing_visible_is_refused_with_what_was_named():
    for text in ("", "   ", "\u200b\u200d", "\x07\n"):
        with pytest.raises(InvalidOptionError) as e:
            clean(text, what="A faction")
        assert str(e.value) == "A faction needs at least one visible character."


def test_same_compares_cleaned_text_ignoring_case():
    assert same("Rome\u200b", "ROME") and same("Straße", "STRASSE") and same("  huns ", "Huns")
    assert not same("Rome", "Roma") and not same("Roma", "Rome") and not same("Rome", "")
    assert same("\u200b", "")  # nothing visible on both sides
    assert same("x" * 500, "X" * 500)  # long names compare, whatever the faction cap
    assert not same("a" * 20_000, "b" * 20_000) and same("a" * 20_000, "A" * 20_000)
