"""``explain <name>``: each game's named things with their text from its data files
(games.core.explain)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.core import get_game
from games.core.explain import explain_text, find, nearest

DATA = Path(__file__).resolve().parents[3] / "games"


def _toml(game: str, name: str) -> dict:
    return tomllib.loads((DATA / game / "data" / name).read_text("utf-8"))


def _one(game_id: str, name: str):
    hits = get_game(game_id).explain(name)
    assert len(hits) == 1, [h.name for h in hits]
    return hits[0]


FIVE = ("barbarian-hordes", "credo", "promised-land", "roman-war", "soul-of-the-empire")


def test_every_game_names_things():
    for g in map(get_game, FIVE):
        names = g.explainable()
        assert len(names) >= 20, g.id
        assert len(set(names)) == len(names)
        for e in g.explanations():
            assert e.text.strip() and "None" not in e.text, (g.id, e)


def test_barbarian_hordes_nation_and_ability_from_nations_toml():
    raw = _toml("barbarian_hordes", "nations.toml")
    huns = _one("barbarian-hordes", "huns")  # any case
    assert huns.kind == "nation"
    assert raw["abilities"]["horsemen"] in huns.text  # "Horsemen: an extra Conquest Phase each turn."
    assert _one("barbarian-hordes", "Horsemen").text == raw["abilities"]["horsemen"].partition(": ")[2]


def test_barbarian_hordes_card_text_from_its_type_codes():
    card = _one("barbarian-hordes", "great leader")
    assert "Force +10 in a war" in card.text and "Leader card" in card.text
    # the two Intrigue cards (types I and D) are both shown
    assert {e.name for e in get_game("barbarian-hordes").explain("intrigue")} == {"Intrigue (I)", "Intrigue (D)"}


def test_credo_event_bishop_article_from_data():
    ev = next(e for e in _toml("credo", "events.toml")["event"] if e["name"] == "New Basilica")
    basilica = _one("credo", "new basilica")
    assert basilica.text == ev["text"] and basilica.when == "Play at any time."
    bishop = _one("credo", "mediolanum")  # a word of "Bishop of Mediolanum"
    assert bishop.name == "Bishop of Mediolanum" and "5 votes" in bishop.text and "Western" in bishop.text
    assert "Orthodox" in _one("credo", "article 3 orthodox").text


def test_promised_land_artefact_cost_and_phase_from_artefacts_toml():
    raw = next(a for a in _toml("promised_land", "artefacts.toml")["artefact"] if a["name"] == "Plague")
    plague = _one("promised-land", "PLAGUE")
    assert plague.text.startswith(raw["text"])
    assert plague.cost == f"{raw['cost']} coins" and "Kingdom building" in (plague.when or "")
    joshua = _one("promised-land", "joshua")
    assert "5 units" in joshua.text and "3 dice in hills" in joshua.text  # card 1 in cards.toml


def test_roman_war_level_ability_and_card():
    raw = next(a for a in _toml("roman_war", "abilities.toml")["ability"] if a["id"] == "benevolence")
    ab = _one("roman-war", "double defense")  # its alias
    assert ab.text == raw["text"] and ab.cost == "11 Cost"  # "11 high-tier / 7 low-tier"
    march = _one("roman-war", "march")
    assert march.cost == "C3" and "D1" in march.text


def test_soul_of_the_empire_power_combat_objective():
    raw = next(c for c in _toml("soul_of_the_empire", "power.toml")["card"] if c["id"] == "auxiliaries")
    aux = _one("soul-of-the-empire", "auxiliaries")
    assert aux.text.startswith(raw["text"]) and aux.when == "Play it in: Start Phase."
    assert "Combat Value 4" in _one("soul-of-the-empire", "testudo").text
    assert "sole occupancy of Italia, Gallia" in _one("soul-of-the-empire", "pax romana").text


def test_unknown_name_says_so_and_suggests_nearest():
    g = get_game("barbarian-hordes")
    assert find(g.explanations(), "hnus") == []
    msg = explain_text(g.explanations(), "hnus")
    assert "Nothing called 'hnus'" in msg and "Huns" in msg
    assert nearest(["Great Leader", "Huns"], "leadr")[0] == "Great Leader"


@pytest.mark.parametrize("game_id", FIVE)
def test_explanations_never_say_where_a_card_is(game_id):
    """Entries are the game's data only: no seat, hand or pile is named."""
    for e in get_game(game_id).explanations():
        low = e.render().lower()
        assert "seat " not in low and "held by" not in low and "your hand:" not in low


SUMMARY_FACTS = {  # each from the rule text's own victory sentence
    "barbarian-hordes": "first to hold 10 Territory Tokens",  # VICTORY: "accumulate 10 Territory Tokens"
    "credo": "11 million Followers or 117 votes",  # The object of the game
    "promised-land": "Most points wins",  # Ending the Game and Winning
    "roman-war": "end of round 10",  # Co-op Win Conditions: "Hannibal Wins"
    "soul-of-the-empire": "7 objective points",  # Winning The Game
}


@pytest.mark.parametrize("game_id", sorted(SUMMARY_FACTS))
def test_each_game_has_a_one_screen_summary_with_turns_and_how_to_win(game_id):
    from games.core.glossary import summary

    text = summary(get_game(game_id))
    assert SUMMARY_FACTS[game_id] in text and "**How to win**" in text
    assert len(text) <= 1200 and len(text.splitlines()) <= 20  # one screen
    assert "game object" not in text and "stateless" not in text  # no developer text


@pytest.mark.parametrize("game_id", FIVE)
def test_an_over_long_name_is_refused_shortened_before_any_matching(game_id, monkeypatch):
    """A 10,000-character name gets a clear refusal that says the limit and echoes the
    input shortened; neither the matcher nor the edit-distance suggestions see it."""
    import games.core.explain as ex

    def not_called(*args, **kwargs):
        raise AssertionError("the matcher was called with an over-long name")

    monkeypatch.setattr(ex, "find", not_called)
    monkeypatch.setattr(ex, "nearest", not_called)
    monkeypatch.setattr(ex, "_distance", not_called)
    name = "abcdefghij" * 1000
    msg = explain_text(get_game(game_id).explanations(), name)
    assert f"at most {ex.MAX_NAME} characters" in msg and "10,000" in msg
    assert "'abcdefghij" in msg and "…" in msg and len(msg) < 300


def test_explain_finds_nothing_for_an_over_long_name_and_a_long_unknown_name_is_shortened():
    g = get_game("barbarian-hordes")
    assert g.explain("huns " * 100) == []
    msg = explain_text(g.explanations(), "zq" * 50)  # 100 characters: looked up, not found
    assert msg.startswith("Nothing called 'zqzq") and "…" in msg and len(msg) < 300
    assert "Nearest:" in msg


def test_nearest_suggestions_by_edit_distance():
    """One dropped, one wrong, one swapped letter: the nearest name is still found."""
    names = ["Great Leader", "Huns", "Goths", "Vandals"]
    assert nearest(names, "hns")[0] == "Huns"
    assert nearest(names, "gotks")[0] == "Goths"
    assert nearest(names, "vnadals")[0] == "Vandals"


def test_the_readmes_explain_examples_name_something():
    """Each `explain <name>` example of the README finds an entry: in Barbarian Hordes (the game
    the README starts with), or in the game the README names just before the example."""
    import re

    from games.core import all_games

    readme = (DATA.parent / "README.md").read_text("utf-8")
    examples = re.findall(r"(?:in ([A-Z][\w ]+?) )?`explain ([^`<>]+)`", readme)
    assert examples
    for title, name in examples:
        ids = [g.id for g in all_games() if title and g.title.startswith(title)]
        game_id = ids[0] if ids else "barbarian-hordes"
        assert get_game(game_id).explain(name), (game_id, name)


def test_promised_land_explains_the_patriarch_types_a_placement_offers() -> None:
    """`place farmer in Tyre`: what a Farmer, Merchant and Priest collect is the rule text's
    Collect Revenue list ("Farmer: collect 1 bronze coin when occupying a hill; ...")."""
    from games.core import get_game

    g = get_game("promised-land")
    farmer = [e.render() for e in g.explain("farmer")]
    assert farmer and "Collects 1 bronze coin when occupying a hill; collects 2 bronze coins when occupying a plain" in farmer[0]
    assert "only one of each type" in farmer[0]
    assert {e.name for e in g.explanations() if e.kind == "Patriarch"} == {"Farmer", "Merchant", "Priest"}


def test_soul_of_the_empire_explains_the_gray_faction_without_an_empty_list() -> None:
    """The Gray faction has no start territories: its pieces come with the Jewish Revolt Power
    Cards and "are controlled by the Jewish Faction" (rule text, Jewish Revolt Power Cards)."""
    from games.core import get_game

    text = next(e.render() for e in get_game("soul-of-the-empire").explain("gray") if e.kind == "faction")
    assert "starts in ." not in text
    assert "Jewish Revolt Power Cards place its pieces" in text
