"""Rules help that quotes its source (games.core.rulebook): the rule texts in data/rules.md,
the rulings that interpret each section, topics by section, ruling number or word, and the
sections of a pending step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games  # noqa: F401  (registers the games)
from games.core import get_game
from games.core.rulebook import rulebook, step_sections, topic_text

GAMES = ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"]
SEEDS = Path("/work/shared/seeds")


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_ships_its_rule_text_in_sections_and_its_rulings(game_id: str) -> None:
    """Every game has its rule text cut into sections and its RULINGS.md read; the rulings
    that quote the text are found in its sections."""
    book = rulebook(get_game(game_id))
    assert len(book.sections) >= 15
    assert all(s.text for s in book.sections if not any(t.parent == s.title for t in book.sections))
    assert len(book.rulings) >= 18
    assert [r.number for r in book.rulings] == [f"R{i}" for i in range(1, len(book.rulings) + 1)]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the original rule texts are not on this machine")
@pytest.mark.parametrize("game_id", GAMES)
def test_the_sections_hold_the_rule_text_word_for_word(game_id: str) -> None:
    """The sections, read in order with their headings, are the seed text's words, none lost."""
    book = rulebook(get_game(game_id))
    seed = next(
        f.read_text(encoding="utf-8")
        for f in SEEDS.glob("*.txt")
        if _words(book.sections[1].text)[:80] in _words(f.read_text(encoding="utf-8"))
    )
    ours = _words(" ".join(f"{s.title} {s.text}" for s in book.sections).replace("[Turn phases]", ""))
    theirs = _words(seed)
    assert ours in theirs or len(set(theirs.split()) - set(ours.split())) <= 40


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ruling_names_a_section_it_interprets(game_id: str) -> None:
    """Every ruling of RULINGS.md is linked to at least one section of the rule text (by a
    sentence it quotes or a section its "Rests on" line names), so `rules <section>` lists it."""
    book = rulebook(get_game(game_id))
    unlinked = [r.number for r in book.rulings if not book.sections_of(r)]
    assert not unlinked


def test_a_short_quote_does_not_swallow_the_text_up_to_the_next_quote() -> None:
    """Credo's R8 says ("can") before quoting the Respect Table sentences; the quotes pair up so
    R8 is linked to Results, where those sentences stand."""
    book = rulebook(get_game("credo"))
    r8 = next(r for r in book.rulings if r.number == "R8")
    assert any(q.startswith("The player holding the Emperor card chooses a Losing doctrine") for q in r8.quotes())
    assert "Results" in [s.title for s in book.sections_of(r8)]


def test_a_rests_on_line_naming_a_section_links_it() -> None:
    """Barbarian Hordes' R16 (round limit) quotes nothing; its "Rests on" names Victory."""
    book = rulebook(get_game("barbarian-hordes"))
    r16 = next(r for r in book.rulings if r.number == "R16")
    assert [s.title for s in book.sections_of(r16)] == ["Victory"]


def test_a_section_is_quoted_with_the_rulings_on_it() -> None:
    """`rules conquest` (Barbarian Hordes) quotes the Conquest Phase section sentence by sentence
    and names R1 (left and right) and R5 (how a war is fought), which quote it."""
    text = topic_text(get_game("barbarian-hordes"), "conquest")
    assert text.startswith("**Conquest Phase** (rule text)")
    assert "> You may attack the player to your immediate left or right." in text
    assert "> The Winner takes a Territory Token from his opponent." in text
    assert "R1 (Left and right)" in text and "R5 (How a war is fought)" in text


def test_a_ruling_number_gives_the_ruling_and_the_sections_it_interprets() -> None:
    """`rules R5` / `rules r5` give R5 in full with the sections holding its quotes."""
    g = get_game("barbarian-hordes")
    text = topic_text(g, "r5")
    assert text.startswith("**R5. How a war is fought** (ruling)")
    assert "It interprets: Conquest Phase" in text
    assert topic_text(g, "R5 How a war is fought") == text


def test_a_word_gives_every_sentence_with_it_under_its_section() -> None:
    """`rules stalemate` (Barbarian Hordes) quotes the sentences containing the word under their
    section names (Conquest Phase, Card List Notation), and the rulings that mention it."""
    text = topic_text(get_game("barbarian-hordes"), "stalemate")
    assert text.startswith("The rule text on 'stalemate':")
    assert "**Conquest Phase**\n> If WT are equal or differ only by 1 there is a stalemate" in text
    assert "**Card List Notation**" in text and "Y = Automatic Stalemate in Conquest Phase" in text
    assert re.search(r"Rulings on it: .*R5 \(How a war is fought\)", text)


def test_a_word_in_a_section_title_gives_that_section() -> None:
    """`rules combat` (Soul of the Empire) is the section Initiate Combat, quoted whole."""
    text = topic_text(get_game("soul-of-the-empire"), "combat")
    assert text.startswith("**Main Phase Actions › Initiate Combat** (rule text)")
    assert "> In order to initiate combat, a player must have at least 1" in text


def test_a_card_named_in_full_leads_with_its_text() -> None:
    """`rules great leader` gives the card's text from cards.toml, then the rule text's lines naming it."""
    text = topic_text(get_game("barbarian-hordes"), "great leader")
    assert text.startswith("Great Leader (card)")
    assert "**Card List**" in text and "Great Leader LC F+10" in text


def test_an_unknown_topic_lists_the_sections() -> None:
    text = topic_text(get_game("credo"), "zzqx")
    assert text.startswith("Nothing in the rule text or the rulings matches 'zzqx'. Its sections: Object of the Game")


def test_a_title_starting_with_a_number_is_a_section_not_a_ruling() -> None:
    """Soul of the Empire's "3 or 4 Player Setup" is a section; "3" alone is R3."""
    g = get_game("soul-of-the-empire")
    assert topic_text(g, "3 or 4 player setup").startswith("**Setup › 3 or 4 Player Setup** (rule text)")
    assert topic_text(g, "3").startswith("**R3.")


@pytest.mark.parametrize(
    ("game_id", "prompt", "section"),
    [
        ("barbarian-hordes", "Event Phase: play Event cards, or say done.", "Event Phase"),
        ("barbarian-hordes", "End Phase: discard 1 card (hand limit 8).", "End Phase"),
        ("barbarian-hordes", "Pick your nation.", "The Nations"),
        ("credo", "Council on Article 1: vote for a proposed doctrine, or abstain.", "General Councils"),
    ],
)
def test_the_step_is_matched_to_the_section_that_governs_it(game_id: str, prompt: str, section: str) -> None:
    """"Rules for this step" quotes the sections whose words the prompt uses most."""
    found = [s.title for s in step_sections(get_game(game_id), prompt)]
    assert section in found, found


@pytest.mark.parametrize("game_id", GAMES)
def test_every_section_a_steps_file_names_is_in_the_rule_text(game_id: str) -> None:
    """data/steps.toml names sections by their exact titles in data/rules.md."""
    from games.core.rulebook import _aliases, _steps

    g = get_game(game_id)
    titles = {s.title for s in rulebook(g).sections}
    for names in [e.sections for e in _steps(type(g).__module__)] + list(_aliases(type(g).__module__).values()):
        assert set(names) <= titles, set(names) - titles


@pytest.mark.parametrize(
    ("game_id", "prompt", "first"),
    [
        ("barbarian-hordes", "War on Huns: commit Force, Leader and Y cards in secret (or fight with none).",
         "Conquest Phase"),
        ("roman-war", "Cost Zone phase: put up to 4 more cards face down (cost <card>), or done.", "[Turn phases]"),
    ],
)
def test_a_step_the_words_would_miss_is_named_by_the_games_steps_file(game_id: str, prompt: str, first: str) -> None:
    """A war (Barbarian Hordes) is fought in the Conquest Phase though the prompt does not say
    so; Roman War's phases are the text's first lines: data/steps.toml says where to look."""
    assert step_sections(get_game(game_id), prompt)[0].title == first


def test_numbered_points_and_abbreviations_stay_in_their_sentence() -> None:
    """Credo's Set Up lists its rules as "a. Only one Article ..."; "(e.g. ...)" does not end
    a sentence either."""
    from games.core.rulebook import rulebook as book_of

    setup = next(s for s in book_of(get_game("credo")).sections if s.title == "Set Up")
    said = setup.sentences()
    assert "a. Only one Article of any given Article Number is permitted." in said
    assert any(x.startswith("If he is defending an Article card which has two Article Numbers (e.g. \"Articles")
               for x in said)
    assert not [x for x in said if re.fullmatch(r"\w{1,2}\.", x)]


def test_a_large_decision_of_cards_is_explained_too() -> None:
    """A Barbarian Hordes war commitment has more card combinations than buttons can show; its
    options still name cards, so the prompt offers "What do these do?"."""
    import itertools
    import random

    from bot.host import Host
    from bot.host.service import MAX_CHOICES
    from games.core.replay import apply_at, start

    g = get_game("barbarian-hordes")
    for seed in range(20):
        s = start(g, [0, 1, 2, 3], g.Options(), seed).state
        rnd = random.Random(seed)
        for step in range(1, 300):
            if g.outcome(s) is not None:
                break
            asked = g.to_act(s)
            for seat, p in asked.items():
                legal = list(itertools.islice(g.legal_actions(s, seat), MAX_CHOICES + 1))
                if p.text.startswith("War on") and len(legal) > MAX_CHOICES:
                    assert Host._explains(g, s, seat, ())
                    return
            seat = rnd.choice(sorted(asked))
            s = apply_at(g, s, seat, rnd.choice(list(itertools.islice(g.legal_actions(s, seat), 200))), seed,
                         step).state
    raise AssertionError("no large war commitment reached")


@pytest.mark.parametrize(("game_id", "section"), [("barbarian-hordes", "Conquest Phase"),
                                                  ("promised-land", "The Rules › Attacking")])
def test_combat_reads_the_section_of_the_games_fighting(game_id: str, section: str) -> None:
    """`rules combat`: Barbarian Hordes calls its combat a war of the Conquest Phase, Promised
    Land "Attacking"; the word a player uses reads that section."""
    from games.core.rulebook import topics

    g = get_game(game_id)
    assert topic_text(g, "combat").startswith(f"**{section}** (rule text)")
    assert "combat" in topics(g)


@pytest.mark.parametrize("game_id", ["barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire"])
def test_rules_on_an_unknown_long_topic_echoes_it_shortened(game_id):
    """``rules <topic>`` matching nothing says so with the topic shortened, not 20,000 characters."""
    text = topic_text(get_game(game_id), "zqxj" * 5000)
    assert "matches 'zqxjzqxj" in text and "…" in text
    assert len(text) < 2000


def _prompts(game_id: str, files: int = 4) -> dict[str, str]:
    """Every kind of prompt the recorded games of ``game_id`` ask (numbers folded), one text each."""
    import json

    from games.core.replay import apply_at, start

    g = get_game(game_id)
    seen: dict[str, str] = {}
    paths = sorted((Path(__file__).parents[2] / "fixtures" / game_id).glob("*.json"))
    for path in paths[:: max(1, len(paths) // files)]:
        r = json.loads(path.read_text())
        s = start(g, list(range(r["players"])), g.Options(**r["options"]), r["seed"]).state
        for i, (seat, _, data) in enumerate(r["actions"], 1):
            for p in g.to_act(s).values():
                seen.setdefault(re.sub(r"\d[\d,]*", "N", p.text), p.text)
            s = apply_at(g, s, seat, g.action_from_json(data), r["seed"], i).state
    return seen


@pytest.mark.parametrize("game_id", GAMES)
def test_every_step_a_game_asks_names_its_sections_and_fits_one_screen(game_id: str) -> None:
    """Every kind of decision the recorded games ask has an entry in the game's data/steps.toml
    whose sections are in the rule text, and its "Rules for this step" answer quotes sentences,
    not whole sections: at most 1900 characters (a Discord message holds 2000) and 40 lines of
    100 columns (one terminal screen)."""
    from games.core.rulebook import STEP_LIMIT, step_entry, step_text

    g = get_game(game_id)
    titles = {s.title for s in rulebook(g).sections}
    prompts = _prompts(game_id)
    assert len(prompts) >= 10
    for text in prompts.values():
        entry = step_entry(g, text)
        assert entry is not None, f"no [[step]] entry for {text!r}"
        assert set(entry.sections) <= titles
        answer = step_text(g, text)
        assert "> " in answer, answer
        assert len(answer) <= STEP_LIMIT <= 1900, (text, len(answer))
        assert sum(1 + len(line) // 100 for line in answer.split("\n")) <= 40, text


def test_the_set_up_step_quotes_its_rules_not_the_whole_text() -> None:
    """Credo's set-up ("Place your Articles...") quotes Set Up's placement rules a.-g. (not the
    dealing of Church cards), in at most 1900 characters."""
    from games.core.rulebook import step_text

    text = step_text(get_game("credo"), "Place your Articles on your Church mat, then say done.")
    assert "> b. He must place as many Articles as possible on his Church mat." in text
    assert "> f. If possible he must have three Articles of Faith." in text
    assert "Deal all the Church cards" not in text
    assert len(text) <= 1900


def test_a_power_card_named_by_the_step_is_quoted_whole() -> None:
    """Soul of the Empire's Gospel question quotes the card's line in Christian Power Cards."""
    from games.core.rulebook import step_text

    text = step_text(get_game("soul-of-the-empire"), "Gospel: Rome moved — move 1 Christian unit 1 territory, or pass.")
    assert "> • Gospel (Start). Durable: Choose a faction" in text


def test_a_mark_printed_on_a_card_is_read_from_the_glossary() -> None:
    """Roman War prints its cards in marks ("Tactic C0 · D1.cz"); `rules D1.cz` gives the
    glossary's meaning (GLOSSARY.md: "Draw n cards straight to your Cost Zone, face down"),
    any number standing for n; a term of Soul of the Empire's glossary is found the same way."""
    rw = get_game("roman-war")
    assert topic_text(rw, "D1.cz").startswith("D n.cz (glossary): Draw n cards straight to your Cost Zone, face down.")
    assert topic_text(rw, "H+2").startswith("H+n / H-n (glossary): Gain / lose n Power")
    assert topic_text(rw, "b* c2").startswith("B* C n (glossary): A boost anyone on the team may pay.")
    sote = topic_text(get_game("soul-of-the-empire"), "dice sequence")
    assert sote.startswith("Dice Sequence (glossary): The dice you readied after rolling")
    assert "**Using Your Dice To Take Actions" in sote


def test_an_unknown_ruling_number_lists_the_rulings_there_are() -> None:
    """`rules R999`: RULINGS.md has no R999; the answer names the numbers that exist (R1 ... R<last>)."""
    g = get_game("roman-war")
    text = topic_text(g, "R999")
    numbers = [r.number for r in rulebook(g).rulings]
    assert text.startswith("There is no ruling R999: the rulings are R1, ")
    assert f", {numbers[-1]}." in text


def test_roman_war_explain_spells_out_the_marks_of_a_card() -> None:
    """GLOSSARY.md: `C n` is the cost, `D n.cz` draws n cards straight to the Cost Zone; `explain levy`
    ("Tactic C0 · D1.cz") gives both in words, the same words `rules D1.cz` quotes."""
    from games.core.glossary import glossary_rows_for

    g = get_game("roman-war")
    levy = next(e for e in g.explanations() if e.name == "Levy")
    assert "C0: Cost: rotate n untapped cards of your Cost Zone" in levy.text
    (_, meaning), = glossary_rows_for(g, "D1.cz")
    assert f"D1.cz: {meaning.replace('`', '')}" in levy.text
    assert "::" not in levy.text and ":: " not in topic_text(g, "rotate:")


def test_a_sentence_printed_twice_in_a_section_is_quoted_once() -> None:
    """Soul of the Empire's "Jewish Revolt Power Cards (The Gray Faction)" prints "If Rome
    captures Gray Faction units, these go into the Captured Unit Area on the Roman Faction
    board." at the end of two paragraphs; `rules capture` quotes it once under that section."""
    text = topic_text(get_game("soul-of-the-empire"), "capture")
    assert text.count("If Rome captures Gray Faction units") == 1
