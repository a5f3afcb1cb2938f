"""Credo: what the rule text (shared/seeds/003_a89d0bca05ff4a91.txt) says a player "can" do is
offered as a choice, never made for the player. Each test quotes its sentence."""

from __future__ import annotations

from games.credo.data import EASTERN_EMPEROR
from games.credo.game import GAME
from games.credo.model import Convoke, Done, Pass, Play
from tests.games.credo.test_credo_rules import act, art, council_state, ev, fol, make, mat


def _debate_with_military_intervention():
    """A Council on Article 1 with two doctrines; Church 2 holds Military Intervention."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    s = council_state(
        [mat(faith=[a]), mat(faith=[b]), mat()],
        [fol(10000, 3), (), ()],
        hands=[(), (ev("Military Intervention"),), ()],
    )
    return act(s, 0, Convoke())


def test_military_intervention_persecution_is_the_players_choice() -> None:
    """Military Intervention: "closes down the General Council before any vote can be taken. The
    player playing this card can Persecute a Church attending the Council." Closing the Council
    is the card's effect; the persecution is offered, not imposed: the card may be played on a
    Church (persecuting it) or alone (closing the Council and persecuting nobody)."""
    s = _debate_with_military_intervention()
    card = ev("Military Intervention")
    legal = GAME.legal_actions(s, 1)
    assert Play(card=card) in legal and Play(card=card, target=0) in legal
    assert "play Military Intervention" in [GAME.format_action(s, a) for a in legal]
    t = act(s, 1, GAME.parse_action(s, 1, "play Military Intervention"))  # no die is rolled
    assert t.council is None and t.creed[0] is None and not t.tasks
    assert len(t.players[0].church) == 4  # 3 Followers and the Eastern Emperor: nobody persecuted


def test_interregnum_returns_any_exiled_bishop() -> None:
    """Interregnum: "You can return 1 Bishop from Exile" names any one Bishop, where Emperor's
    Concubine Intercedes says "One of your Bishops can return from Exile": Interregnum may recall
    another Church's exiled Bishop (RULINGS.md R24); the Concubine only one's own."""
    s = make(
        church=[("b-nicea",), ("b-mediolanum",), ()],
        hands=[(ev("Interregnum"), ev("Emperor's Concubine Intercedes")), (), ()],
        exiled=(("b-mediolanum", ev("Exile in Corsica")), ("b-nicea", ev("Exile in Armenia"))),
    )
    plays = {(a.card, a.bishop) for a in GAME.legal_actions(s, 0) if isinstance(a, Play)}
    assert (ev("Interregnum"), "b-mediolanum") in plays and (ev("Interregnum"), "b-nicea") in plays
    assert (ev("Emperor's Concubine Intercedes"), "b-nicea") in plays
    assert (ev("Emperor's Concubine Intercedes"), "b-mediolanum") not in plays
    t = act(s, 0, GAME.parse_action(s, 0, "play Interregnum to recall Mediolanum"))
    assert not GAME.is_exiled(t, "b-mediolanum") and GAME.is_exiled(t, "b-nicea")
    assert t.players[1].church == ("b-mediolanum",)


def test_by_this_sign_draws_when_no_other_church_has_laity() -> None:
    """By This Sign Shall You Conquer: "Take 1 Laity from another Church and draw 2 Church cards",
    an Event card that "can be kept and played at any time": with no Laity in any other Church
    there is nothing to take, and the card is still played for its 2 Church cards (RULINGS.md
    R26). With Laity elsewhere it is played on a Church holding them, as before."""
    card = ev("By This Sign Shall You Conquer")
    s = make(church=[(), fol(10000, 1), ()], hands=[(card,), (), ()])
    legal = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Play)]
    assert legal == [Play(card=card)]
    t = act(s, 0, legal[0])
    assert len(t.players[0].church) == 2 and t.players[1].church == fol(10000, 1)
    w = make(church=[(), ("l-prefect-of-gaul",), ()], hands=[(card,), (), ()])
    assert [a for a in GAME.legal_actions(w, 0) if isinstance(a, Play)] == [Play(card=card, target=1)]


def test_church_father_can_teach_article_one() -> None:
    """Church Father, Teach an Article: "teach any Article in the player's Creed a duplicate of which
    the player holds in his hand, and which the target Church does not possess in his Creed ... The
    targeted player then discards one of his own Firm Beliefs or Customary Practices, replacing it
    with the new Article." Any Article, Article 1 too: set-up rule d. (Article 1 only as an Article
    of Faith) governs placing Articles at set-up and by "the rules for Article placement during game
    set-up", not the box a taught Article takes (RULINGS.md R10, R14)."""
    a1, dup = art("Article 1 Orthodox"), art("Article 1 Orthodox", 2)
    target_mat = mat(faith=[art("Article 3 Orthodox"), art("Article 4 Orthodox"), art("Article 5 Athanasian")],
                     firm=[art("Article 6 Orthodox")])  # fmt: skip
    s = make(
        mats=[mat(faith=[a1]), target_mat, mat()],
        church=[("b-nicea",), (), ()],
        hands=[(ev("Church Father"), dup), (), ()],
    )
    teach = Play(card=ev("Church Father"), bishop="b-nicea", mode="teach", target=1, article=dup)
    assert teach in GAME.legal_actions(s, 0)
    t = act(s, 0, teach)
    assert t.players[1].mat[3] == dup and art("Article 6 Orthodox") in t.event_discard


def test_emperor_hesitates_needs_a_council_the_emperor_called() -> None:
    """The Emperor Hesitates: "Proceed to a new vote on the Article, without counting the votes of
    the Emperor who called the Council." At a Council an Event card convoked, no Emperor called it,
    so the card has nobody to discount and is not offered; at the Emperor's own Council it is
    (RULINGS.md R20)."""
    a, b = art("Article 1 Orthodox"), art("Article 1 Tritheist")
    hesitates = ev("The Emperor Hesitates")
    s = make(
        stage="main",
        active=2,
        mats=[mat(faith=[a]), mat(faith=[b]), mat()],
        church=[(), (), (EASTERN_EMPEROR,)],
        hands=[(), (hesitates,), ()],
        event_deck=[ev("General Council must be Convoked")],
    )
    s = act(s, 2, Done())  # Church 1 draws the card: a Council at once
    assert s.council is not None and s.council.convoker is None and s.window.kind == "debate"
    while s.window.waiting[0] != 1:
        s = act(s, s.window.waiting[0], Pass())
    assert Play(card=hesitates) not in GAME.legal_actions(s, 1)
    own = council_state([mat(faith=[a]), mat(faith=[b]), mat()], [(), (), ()], hands=[(), (hesitates,), ()])
    own = act(own, 0, Convoke())
    assert Play(card=hesitates) in GAME.legal_actions(own, 1)


def test_an_exiled_bishop_may_still_be_nominated() -> None:
    """Exile: "Exiled Bishops cannot vote at a General Council" is all that exile takes from a Bishop
    (its Followers "are counted in the total Followers"); Proselytism's "The player nominates one of
    his own Bishops" and Church Father's "nominate one of his Bishop cards" include an exiled one
    (RULINGS.md R9, R10, R28)."""
    card = ev("Proselytism")
    s = make(
        church=[("b-nicea",), fol(10000, 2), ()],
        hands=[(card, ev("Evangelic Campaign")), (), ()],
        exiled=(("b-nicea", ev("Exile in Armenia")),),
    )
    plays = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Play)]
    assert Play(card=card, bishop="b-nicea", target=1) in plays
    assert Play(card=ev("Evangelic Campaign"), bishop="b-nicea") in plays
    t = act(s, 0, Play(card=card, bishop="b-nicea", target=1), 4, 3)  # 7: take 1 Follower card
    assert len(t.players[0].church) == 2 and GAME.is_exiled(t, "b-nicea")
