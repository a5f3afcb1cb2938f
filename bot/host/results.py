"""Finished games' results and ratings in storage: recorded when a game ends, rebuilt from the
logs by ``tabula ratings rebuild`` (the rules are in ``bot.host.ratings``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core import get_game
from storage import GameResult, RatingRecord, SessionRecord, Storage
from storage.replay import load_state

from .ratings import game_result, rate, rate_all


async def result_of(storage: Storage, rec: SessionRecord) -> GameResult:
    """The result of finished session ``rec``, from its log: the final state (snapshot and
    replay) for the factions and sides, and who made each seat's actions."""
    game = get_game(rec.game_id)
    state = await load_state(storage, game, rec)
    return game_result(game, rec, state, await storage.seat_actors(rec.id))


async def record(storage: Storage, rec: SessionRecord, now: float) -> bool:
    """Store the result of session ``rec`` (just finished) and its rated players' new ratings.

    The ratings are a function of the results in order (ended_at, session id): when a game that
    ended later is stored already (another process), every rating is recomputed from the stored
    results instead, so the table stays what ``rebuild`` gives. False when it was stored already."""
    result = await result_of(storage, rec)
    same_game = await storage.results(game_id=rec.game_id)
    if any(r.session_id == rec.id for r in same_game):
        return False
    later = [r for r in same_game if (r.ended_at, r.session_id) > (result.ended_at, result.session_id)]
    if later:
        everything = [*await storage.results(), result]
        await storage.replace_results(everything, rate_all(everything), now)
        return True
    current = {r.user_id: r for r in await storage.ratings(rec.game_id)}
    return await storage.record_result(result, rate(result, current), now)


@dataclass
class RebuildReport:
    """What ``rebuild`` did: games read, results and ratings written, and the stored ratings
    that differed from the recomputed ones (text lines)."""

    games: int = 0
    rated_games: int = 0
    ratings: int = 0
    differences: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


async def rebuild(storage: Storage, now: float, *, write: bool = True) -> RebuildReport:
    """Recompute every result and rating from the finished sessions' logs, compare the ratings
    with the stored ones, and (``write``) replace them. A session whose log does not load is
    reported in ``problems`` and left out, unless it was played under another version of its
    game's rules (``SessionRecord.rules_version``): its result stored when it ended is kept."""
    report = RebuildReport()
    results: list[GameResult] = []
    kept = {r.session_id: r for r in await storage.results()}
    for rec in sorted(await storage.sessions_with_status("finished"), key=lambda r: (r.ended_at or 0.0, r.id)):
        try:
            results.append(await result_of(storage, rec))
        except Exception as e:  # noqa: BLE001 - one damaged game must not stop the others
            if rec.id in kept and rec.rules_version != get_game(rec.game_id).rules_version:
                results.append(kept[rec.id])  # played under other rules: its result as stored when it ended
                continue
            report.problems.append(f"game #{rec.id} ({rec.game_id}): {e}")
    ratings = rate_all(results)
    report.games = len(results)
    report.rated_games = sum(1 for r in results if any(x.rated for x in r.seats))
    report.ratings = len(ratings)
    stored: dict[tuple[str, int], RatingRecord] = {}
    for game_id in sorted({r.game_id for r in results} | {g.id for g in _games()}):
        stored.update({(game_id, r.user_id): r for r in await storage.ratings(game_id)})
    fresh = {(r.game_id, r.user_id): r for r in ratings}
    for key in sorted(set(stored) | set(fresh)):
        a, b = stored.get(key), fresh.get(key)
        if a != b:
            report.differences.append(f"{key[0]}, user {key[1]}: stored {_show(a)}, recomputed {_show(b)}")
    if write:
        await storage.replace_results(results, ratings, now)
    return report


def _games() -> list:
    from games.core import all_games

    return list(all_games())


def _show(r: RatingRecord | None) -> str:
    return "none" if r is None else f"mu {r.mu!r} sigma {r.sigma!r} ({r.games} games, {r.wins} won)"
