"""Ephemeral copies of a player's prompts (bot/discordbot/copies.py): a copy of an earlier
question is edited to say it was replaced, a copy of the question still open is left alone
(its click counts), the game's end removes every copy's buttons, and a copy whose interaction
token has expired (15 minutes) is not edited."""

from __future__ import annotations

from typing import Any

from bot.discordbot.copies import TOKEN_SECONDS, EphemeralCopies
from bot.discordbot.messages import same_question


class Followup:
    def __init__(self) -> None:
        self.edits: list[tuple[int, dict[str, Any]]] = []

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        self.edits.append((message_id, kwargs))


class Interaction:
    def __init__(self) -> None:
        self.followup = Followup()


class Clock:
    t = 1000.0

    def __call__(self) -> float:
        return self.t


async def test_replaced_copies_are_edited_and_open_ones_kept() -> None:
    clock = Clock()
    copies = EphemeralCopies(clock)
    old, same, mine = Interaction(), Interaction(), Interaction()
    copies.add(1, 7, old, 11, "3.aaaaaaaaaa", "Attack or done?")  # type: ignore[arg-type]
    copies.add(1, 7, same, 12, "5.bbbbbbbbbb", "Support a side or pass?")  # type: ignore[arg-type]
    copies.add(2, 7, mine, 13, "4.cccccccccc", "Another game")  # type: ignore[arg-type]
    edited = await copies.supersede(1, 7, "6.bbbbbbbbbb", "replaced: LINK", same_question)
    assert edited == 1
    assert old.followup.edits == [(11, {"content": "replaced: LINK", "view": None, "attachments": []})]
    assert same.followup.edits == [] and mine.followup.edits == []
    assert [c.message_id for c in copies.kept(1, 7)] == [12]


async def test_the_games_end_removes_every_copys_buttons_while_the_token_lives() -> None:
    clock = Clock()
    copies = EphemeralCopies(clock)
    fresh, stale = Interaction(), Interaction()
    copies.add(1, 8, stale, 21, "3.aaaaaaaaaa", "old")  # type: ignore[arg-type]
    clock.t += TOKEN_SECONDS - 60
    copies.add(1, 9, fresh, 22, "4.aaaaaaaaaa", "Your turn")  # type: ignore[arg-type]
    clock.t += 120  # the first copy's token has expired; the second still lives
    assert await copies.close(1, "The game is over.") == 1
    assert fresh.followup.edits == [(22, {"content": "Your turn\nThe game is over.", "view": None,
                                          "attachments": []})]
    assert stale.followup.edits == []
    assert copies.kept(1, 9) == []


async def test_an_answered_copy_is_no_longer_edited() -> None:
    copies = EphemeralCopies(Clock())
    i = Interaction()
    copies.add(1, 7, i, 31, "3.aaaaaaaaaa", "Attack or done?")  # type: ignore[arg-type]
    copies.answered(31)
    assert await copies.close(1, "over") == 0 and i.followup.edits == []
