"""The host's statistics, leaderboards and mirrored feeds (``/game stats``, ``/game leaderboard``,
``/game mirror``); mixed into ``bot.host.Host``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from games.core import get_game
from games.core.english import count
from storage import SessionRecord

from .errors import InvalidOptionError, PermissionDeniedError
from .ratings import MIN_HUMANS, conservative, leaderboard
from .replies import Reply
from .results import record
from .stats import fit, player_lines, server_lines

if TYPE_CHECKING:
    from storage import Storage

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 20


class StandingsMixin:
    """Statistics, ratings and mirrors; expects the Host's ``storage``, ``names``, ``clock``
    and ``_find``."""

    storage: Storage
    names: Any
    clock: Any

    async def _record_result(self, rec: SessionRecord) -> None:
        """Store a game's result and ratings once it has finished; a failure is logged (the
        game's end is stored already, and ``tabula ratings rebuild`` recomputes everything)."""
        try:
            await record(self.storage, rec, self.clock())
        except Exception:
            log.exception("could not record the result of game #%s", rec.id)

    async def stats(self, guild_id: int | None, *, game_id: str | None = None, user_id: int | None = None
                    ) -> Reply:
        """Finished games of the server: a player's games played and won by game, player count
        and nation or faction (``user_id``), or the win rates per nation or faction, game and
        player count (ephemeral). Raises UnknownGameError for an unknown ``game_id``."""
        gid = get_game(game_id).id if game_id else None
        results = await self.storage.results(guild_id=guild_id, game_id=gid)
        if user_id is not None:
            lines = player_lines(results, user_id, self.names.user(user_id))
        else:
            lines = server_lines(results, gid)
        more = "; name a game (game:) or a player (player:) to see less at once" if gid is None or user_id is None \
            else ""
        return Reply(text=fit(lines, more=more), ephemeral=True)

    async def leaderboard(self, guild_id: int | None, game_id: str) -> Reply:
        """The skill ratings of ``game_id`` for the players of this server's rated games, best
        first (mu - 3 sigma), at most ``LEADERBOARD_SIZE`` (ephemeral).

        Raises UnknownGameError."""
        game = get_game(game_id)
        here = {x.user_id for r in await self.storage.results(guild_id=guild_id, game_id=game.id)
                for x in r.seats if x.rated}
        board = leaderboard([r for r in await self.storage.ratings(game.id) if r.user_id in here])
        if not board:
            return Reply(text=f"No rated game of {game.title} here yet: a finished game counts when at least "
                              f"{MIN_HUMANS} people played it to the end.", ephemeral=True)
        lines = [f"**{game.title}** — skill rating (mu − 3σ, openskill), {count(len(board), 'player')}:"]
        for i, r in enumerate(board[:LEADERBOARD_SIZE], start=1):
            lines.append(f"{i}. {self.names.user(r.user_id)} {conservative(r):.1f} "
                         f"(μ {r.mu:.1f}, σ {r.sigma:.1f}; {r.games} games, {r.wins} won)")
        if len(board) > LEADERBOARD_SIZE:
            lines.append(f"… and {len(board) - LEADERBOARD_SIZE} more.")
        return Reply(text=fit(lines), ephemeral=True)

    async def mirror(self, channel_id: int, user_id: int, target: int | None, *, is_moderator: bool,
                     target_guild: int | None = None, session_id: int | None = None) -> Reply:
        """Mirror the channel's game's public updates (board images included) to channel
        ``target`` of the same server; ``target`` None stops every mirror of the game.
        Moderators only.

        Raises PermissionDeniedError, NoSessionError, InvalidOptionError (another server, the
        game's own channel, a game that is over)."""
        if not is_moderator:
            raise PermissionDeniedError("Only a moderator (Manage Server or Manage Channels) can mirror a game.")
        rec: SessionRecord = await self._find(channel_id, session_id)  # type: ignore[attr-defined]
        title = f"{get_game(rec.game_id).title} #{rec.id}"
        if target is None:
            n = await self.storage.clear_mirrors(rec.id)
            return Reply(text=f"{title} is no longer mirrored ({n} channel(s))." if n else
                         f"{title} is not mirrored anywhere.", ephemeral=True)
        if target == rec.channel_id:
            raise InvalidOptionError("That is the game's own channel; mirror it to another channel.")
        if rec.guild_id is None or target_guild != rec.guild_id:
            raise InvalidOptionError("A game is mirrored only to a channel of its own server.")
        added = await self.storage.set_mirror(rec.id, target, user_id, self.clock())
        where = self.names.channel(target)
        if not added:
            return Reply(text=f"{title} is already mirrored to {where}.", ephemeral=True)
        return Reply(text=f"{title}'s public updates, board images included, are now also posted in {where} "
                          "(no pings, nothing private) until the game ends; `/game mirror off:True` stops it.",
                     ephemeral=True)

    async def mirrors_of(self, session_id: int) -> list[int]:
        """The channels the game's public updates are mirrored to."""
        return await self.storage.mirrors(session_id)

    async def stop_mirror(self, session_id: int, channel_id: int | None = None) -> int:
        """Stop mirroring the game (to ``channel_id``, or everywhere): the game ended, or the
        mirror channel is gone."""
        return await self.storage.clear_mirrors(session_id, channel_id)
