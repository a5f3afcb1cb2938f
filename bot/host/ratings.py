"""Skill ratings per game, from finished games' results (openskill's Plackett-Luce model).

Which games count (README, "Statistics and ratings"):

- a finished game (not abandoned) with at least ``MIN_HUMANS`` rated players;
- a seat is rated for the human who played it when that human made at least
  ``MIN_OWN_SHARE`` of the seat's actions; a seat the AI (or the host, closing a response
  window) answered for longer is not rated for anyone, and plays as an unrated seat;
- AI seats and unrated seats take part with the model's starting rating, which never changes.

How the result is read: the game names its winners only, so every winning seat shares first
place and every other seat shares second; a game without a winner is a draw between everyone.
Seats of one side (Promised Land's Hebrews and Heathens, Roman War's Roman team in a duel) are
one team; a game with a single side (Roman War's co-op) is a team against a fixed opponent, the
Hannibal deck, rated at the starting rating and never changed.

Ratings are a pure function of the results in order (ended_at, session id), so
``tabula ratings rebuild`` recomputes them exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.core import Game, Outcome
from storage import GameResult, RatingRecord, SeatResult, SessionRecord

MIN_HUMANS = 2
MIN_OWN_SHARE = 0.75


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def conservative(r: RatingRecord) -> float:
    """The rating shown on the leaderboard: mu - 3 sigma (openskill's ordinal), so a player
    with few games ranks below an equally good one with many."""
    return r.mu - 3 * r.sigma


def seat_sides(game: Game, state: Any, players: int) -> list[int]:
    """The side of each seat (the game's ``sides``): Promised Land's two teams, the Roman
    War duel's Romans against the Hannibal seats, Roman War co-op's single team; in every
    other game each seat is its own side."""
    return list(game.sides(state, players))


def credited_user(counts: Mapping[int | None, int], holder: int | None) -> tuple[int | None, bool]:
    """(the human credited with a seat, whether the seat is rated for them) from who made its
    actions (user id -> actions; None for the AI or the host) and its holder at the end."""
    humans = {u: n for u, n in counts.items() if u is not None}
    total = sum(counts.values())
    if not humans:
        return (holder, True) if holder is not None and total == 0 else (None, False)
    user = max(humans, key=lambda u: (humans[u], u == holder))
    return user, humans[user] >= MIN_OWN_SHARE * total


def game_result(game: Game, rec: SessionRecord, state: Any, actors: Mapping[int, Mapping[int | None, int]]
                ) -> GameResult:
    """The result of finished session ``rec`` from its final ``state`` and who played each
    seat's actions (``Storage.seat_actors``); ``rated`` marks the seats whose player's rating
    this game changes (see the module's rules)."""
    outcome = Outcome.model_validate(rec.outcome or {"winners": (), "reason": ""})
    sides = seat_sides(game, state, len(rec.seats))
    seats: list[SeatResult] = []
    seen: set[int] = set()
    for s in rec.seats:
        user, ok = credited_user(actors.get(s.seat, {}), s.user_id)
        if user in seen:  # one player in two seats (after a replacement): rated for the first only
            ok = False
        if user is not None:
            seen.add(user)
        faction = game.seat_name(state, s.seat)
        seats.append(SeatResult(s.seat, user, faction, sides[s.seat], s.seat in outcome.winners, ok))
    rated = {x.user_id for x in seats if x.rated}
    if rec.status != "finished" or len(rated) < MIN_HUMANS:
        seats = [SeatResult(x.seat, x.user_id, x.faction, x.side, x.won, False) for x in seats]
    return GameResult(rec.id, rec.guild_id, rec.game_id, rec.ended_at or 0.0, tuple(seats))


def rate(result: GameResult, current: Mapping[int, RatingRecord]) -> list[RatingRecord]:
    """The new ratings of the rated players of ``result`` (one record each), given the
    ratings before it (user id -> record; a missing player starts at the model's default)."""
    rated = [x for x in result.seats if x.rated]
    if not rated:
        return []
    model = _model()
    sides = sorted({x.side for x in result.seats})
    teams: list[list[Any]] = []
    ranks: list[int] = []
    for side in sides:
        members = [x for x in result.seats if x.side == side]
        team = []
        for x in members:
            before = current.get(x.user_id) if x.rated and x.user_id is not None else None
            team.append(model.rating() if before is None else model.rating(mu=before.mu, sigma=before.sigma))
        teams.append(team)
        ranks.append(1 if any(x.won for x in members) else 2)
    if len(teams) == 1:  # a team against a fixed opponent (Roman War co-op against the Hannibal deck)
        teams.append([model.rating()])
        ranks.append(2 if ranks[0] == 1 else 1)
    new = model.rate(teams, ranks=ranks)
    out = []
    for side, team in zip(sides, new, strict=False):
        members = [x for x in result.seats if x.side == side]
        for x, r in zip(members, team, strict=True):
            if x.rated and x.user_id is not None:
                before = current.get(x.user_id)
                out.append(RatingRecord(result.game_id, x.user_id, r.mu, r.sigma,
                                        (before.games if before else 0) + 1,
                                        (before.wins if before else 0) + int(x.won)))
    return out


def rate_all(results: Iterable[GameResult]) -> list[RatingRecord]:
    """Every rating from ``results`` applied in order (ended_at, session id), by (game, user)."""
    table: dict[str, dict[int, RatingRecord]] = {}
    for result in sorted(results, key=lambda r: (r.ended_at, r.session_id)):
        per_game = table.setdefault(result.game_id, {})
        for r in rate(result, per_game):
            per_game[r.user_id] = r
    return [r for g in sorted(table) for _, r in sorted(table[g].items())]


def leaderboard(ratings: Sequence[RatingRecord]) -> list[RatingRecord]:
    """Ratings best first (``conservative``), ties by more games, then user id."""
    return sorted(ratings, key=lambda r: (-conservative(r), -r.games, r.user_id))
