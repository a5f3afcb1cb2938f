"""The lobby: opening a game, joining and leaving, choosing a nation or faction, options,
AI seats, and the start (set-up from the seed, its sha256 published). Mixed into
``bot.host.service.Host``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from games.core import Game, GameError, get_game, start
from games.core.english import count
from games.core.errors import list_words
from games.core.options import options_message
from storage import ActionRecord, NewSession, SeatRecord, SessionRecord, SessionUpdate
from storage.replay import options_of, seats_of

from .common import AI_KINDS, _Applied, _event_record
from .errors import GameFaultError, InvalidOptionError, LobbyError
from .replies import Reply
from .usertext import clean, same


class LobbyMixin:
    """Opening a game, its seats and options before the start, and the start."""

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        game_id: str,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        join: bool = True,
        faction: str | None = None,
    ) -> Reply:
        """Open a lobby for ``game_id`` in ``channel_id``; the creator takes seat 0 unless
        ``join`` is False.

        Raises
        ------
        UnknownGameError
            No such game (the message lists the known ones).
        InvalidOptionError
            ``options`` that the game's Options model rejects.
        ChannelBusyError
            The channel already has an open game.
        """
        game = get_game(game_id)
        opts = self._validate_options(game, dict(options or {}))
        faction = None if faction is None else clean(faction, what="A nation or faction")
        now = self.clock()
        seats = (SeatRecord(0, user_id, faction, None, now),) if join else ()
        rec = await self.storage.create_session(
            NewSession(guild_id, channel_id, game.id, opts, self.seeds() if seed is None else seed, user_id, seats,
                       rules_version=game.rules_version),
            now,
        )
        text = (f"{self.names.user(user_id)} opened a game of {game.title} "
                f"({game.min_players}–{game.max_players} players). Join with /game join; "
                "the creator starts it with /game start.")
        return Reply(text=text, embed=self._embed(game, rec), session_id=rec.id, version=rec.version,
                     status=rec.status)

    @staticmethod
    def _validate_options(game: Game, values: dict[str, Any]) -> dict[str, Any]:
        try:
            return game.Options.model_validate(values).model_dump(mode="json")
        except ValidationError as e:
            raise InvalidOptionError(options_message(game.title, game.Options, e)) from None

    async def join(self, channel_id: int, user_id: int, *, faction: str | None = None,
                   session_id: int | None = None) -> Reply:
        """Take the next free seat in the channel's lobby.

        Raises NoSessionError, LobbyError (started, full, already seated),
        InvalidOptionError (faction taken), GameOverError."""
        faction = None if faction is None else clean(faction, what="A nation or faction")
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "join it")
            if rec.seat_of(user_id) is not None:
                raise LobbyError(f"You already have seat {rec.seat_of(user_id).seat + 1} in this game.")
            if len(rec.seats) >= game.max_players:
                raise LobbyError(f"The game is full ({game.max_players} seats).")
            self._check_faction(rec, faction, user_id)
            seats = (*rec.seats, SeatRecord(len(rec.seats), user_id, faction, None, self.clock()))
            rec = await self._commit(rec, SessionUpdate(seats=seats))
        return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} joined (seat {len(seats)}).")

    def _check_faction(self, rec: SessionRecord, faction: str | None, user_id: int | None) -> None:
        """Refuse a faction another seat wished for (compared normalised, ignoring case)."""
        if faction is None:
            return
        for s in rec.seats:
            if s.faction and same(s.faction, faction) and s.user_id != user_id:
                taken = list_words([self._typed(x.faction) for x in rec.seats if x.faction])
                raise InvalidOptionError(f"{self._typed(faction)} is already taken by seat {s.seat + 1}; "
                                         f"taken: {taken}.")

    async def _lobby_reply(self, game: Game, rec: SessionRecord, text: str) -> Reply:
        return Reply(text=text, embed=self._embed(game, rec), session_id=rec.id, version=rec.version,
                     status=rec.status)

    async def leave(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> Reply:
        """Leave your seat. In the lobby the seat is removed (later seats move up); in a
        started game an AI takes the seat over and plays it from now on.

        Raises NoSessionError, NotSeatedError, GameOverError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            seat = self._require_seat(rec, user_id)
            now = self.clock()
            if rec.status == "lobby":
                seats = tuple(
                    SeatRecord(i, s.user_id, s.faction, s.ai, s.joined_at, s.left_at)
                    for i, s in enumerate(x for x in rec.seats if x.seat != seat.seat)
                )
                rec = await self._commit(rec, SessionUpdate(seats=seats))
                return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} left the table.")
            self._require_active(rec)
            return await self._reseat(game, rec, seat.seat, None, now,
                                      f"{self.names.user(user_id)} left; an AI plays seat {seat.seat + 1} now.")

    async def choose(self, channel_id: int, user_id: int, faction: str, *, session_id: int | None = None) -> Reply:
        """Choose your nation or faction before the start (games that draft in play, like
        Barbarian Hordes, keep it as a preference shown on the seat; a game whose Options
        has a ``factions`` field receives the choices, one per seat).

        Raises NoSessionError, NotSeatedError, LobbyError, InvalidOptionError (taken)."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "choose a faction")
            seat = self._require_seat(rec, user_id)
            faction = clean(faction, what="A nation or faction")
            self._check_faction(rec, faction, user_id)
            seats = tuple(
                SeatRecord(s.seat, s.user_id, faction, s.ai, s.joined_at, s.left_at) if s.seat == seat.seat else s
                for s in rec.seats
            )
            rec = await self._commit(rec, SessionUpdate(seats=seats))
        return await self._lobby_reply(game, rec, f"{self.names.user(user_id)} chose {self._typed(faction)}.")

    async def set_options(self, channel_id: int, user_id: int, values: Mapping[str, Any], *,
                          is_moderator: bool = False, session_id: int | None = None) -> Reply:
        """Change game options in the lobby (merged into the current ones).

        Raises PermissionDeniedError (not the creator), LobbyError, InvalidOptionError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "change the options")
            self._require_manager(rec, user_id, is_moderator, "change the options")
            unknown = sorted(set(values) - set(game.Options.model_fields))
            if unknown:
                unknown = [self._typed(clean(str(k), limit=100, what="An option name")) for k in unknown]
                raise InvalidOptionError(f"{game.title} has no option {list_words(unknown)}; options: "
                                         f"{list_words(sorted(game.Options.model_fields))}.")
            opts = self._validate_options(game, {**rec.options, **values})
            rec = await self._commit(rec, SessionUpdate(options=opts))
        shown = ", ".join(f"{k}={self._typed(self._short(str(v)))}" for k, v in opts.items())
        return await self._lobby_reply(game, rec, f"Options: {shown}.")

    async def add_ai(self, channel_id: int, user_id: int, count: int = 1, kind: str = "heuristic", *,
                     is_moderator: bool = False, session_id: int | None = None) -> Reply:
        """Add ``count`` AI seats (``kind`` heuristic or random) to the lobby.

        Raises PermissionDeniedError, LobbyError (full), InvalidOptionError (kind, count)."""
        if kind not in AI_KINDS:
            raise InvalidOptionError(f"Unknown AI kind {kind!r}; choose {list_words(AI_KINDS)}.")
        if count < 1:
            raise InvalidOptionError("Add at least one AI seat.")
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "add AI seats")
            self._require_manager(rec, user_id, is_moderator, "add AI seats")
            free = game.max_players - len(rec.seats)
            if count > free:
                raise LobbyError(f"Only {free} seat(s) left ({game.max_players} at most).")
            now = self.clock()
            seats = (*rec.seats, *(SeatRecord(len(rec.seats) + i, None, None, kind, now) for i in range(count)))
            rec = await self._commit(rec, SessionUpdate(seats=seats))
        return await self._lobby_reply(game, rec, f"Added {count} AI seat(s) ({kind}).")

    async def start(self, channel_id: int, user_id: int, *, is_moderator: bool = False,
                    session_id: int | None = None) -> Reply:
        """Start the lobby's game: set up from the seed (step 0), publish sha256(seed), and
        play AI seats until a human must act.

        Raises PermissionDeniedError, LobbyError (too few or too many seats), GameOverError."""
        rec = await self._find(channel_id, session_id)
        async with self._lock(rec.id):
            rec = await self.storage.get_session(rec.id)
            game = get_game(rec.game_id)
            self._require_lobby(rec, "start it")
            self._require_manager(rec, user_id, is_moderator, "start the game")
            n = len(rec.seats)
            if not game.min_players <= n <= game.max_players:
                raise LobbyError(f"{game.title} needs {game.min_players}–{game.max_players} seats; "
                                 f"there are {n}. Add players or AI seats.")
            options = rec.options
            if "factions" in game.Options.model_fields:
                # a faction picked in the lobby (/game nation) wins over the option's entry for that seat
                given = list(options.get("factions") or [])
                given += [None] * (n - len(given))
                picked = [s.faction or given[s.seat] for s in rec.seats]
                options = self._validate_options(game, {**options, "factions": picked})
                rec = SessionRecord(**{**rec.__dict__, "options": options})
            now = self.clock()
            try:
                step = start(game, seats_of(rec), options_of(game, rec), rec.seed)
                setup = _Applied(ActionRecord(0, None, "setup", None,
                                              tuple(_event_record(e) for e in step.events),
                                              None, False, True, None, now), step.state)
                ai = self._run_ai(game, rec, rec.seats, step.state, 0, now, auto=await self._auto(rec))
                state = ai[-1].state if ai else step.state
                change = self._close_change(game, rec, {}, state, [setup, *ai], now,
                                            *await self._timing(rec, game, state), fault=ai.fault,
                                            status="active", started_at=now, options=options,
                                            rules_version=game.rules_version)
            except GameError:
                raise
            except Exception as e:
                fault = self._incident(rec, None, "setting up the game", e, now)
                raise GameFaultError(f"Sorry, the game's set-up failed (incident `{fault['incident']}`); the game "
                                     "was not started. Try other options or another game.", fault["incident"]) from None
            rec = await self._commit(rec, change)
            self._remember(rec, state)
        feed = [*self._feed_rows(rec, [setup, *ai]), *self._fault_line(ai.fault)]
        head: list[str | tuple[int, str]] = [
            f"{game.title} begins with {count(n, 'seat')}. Seed commitment: sha256 `{rec.seed_hash}` "
            "(the seed is revealed at the end)."]
        return await self._status_reply(game, rec, state, head + feed)
