"""Statistics of finished games (``/game stats``, ``tabula stats``): games played and won by
game, player count and nation or faction, for a player or for a whole server; and the win
rates ``tabula simulate`` printed, read back so human and AI play can be compared."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.core import get_game
from games.core.english import count
from storage import GameResult


@dataclass(frozen=True)
class Tally:
    """Seats played and won, by a key (a game, a player count, a faction)."""

    played: Counter
    won: Counter

    def line(self, key: object, label: str) -> str:
        p, w = self.played[key], self.won[key]
        return f"{label}: {p} played, {w} won ({w / p:.0%})" if p else f"{label}: none"


def _tally(pairs: Iterable[tuple[object, bool]]) -> Tally:
    played: Counter = Counter()
    won: Counter = Counter()
    for key, win in pairs:
        played[key] += 1
        won[key] += int(win)
    return Tally(played, won)


def _title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except Exception:  # noqa: BLE001 - a game no longer installed keeps its id
        return game_id


def player_lines(results: Sequence[GameResult], user_id: int, who: str) -> list[str]:
    """A player's record: games played and won in all, then per game by player count and by
    nation or faction."""
    mine = [(r, x) for r in results for x in r.seats if x.user_id == user_id]
    if not mine:
        return [f"{who} has no finished game here yet."]
    wins = sum(x.won for _, x in mine)
    lines = [f"{who}: {count(len(mine), 'finished game')}, {wins} won ({wins / len(mine):.0%})."]
    for game_id in sorted({r.game_id for r, _ in mine}, key=_title):
        these = [(r, x) for r, x in mine if r.game_id == game_id]
        per_game = _tally((0, x.won) for _, x in these)
        lines.append(per_game.line(0, f"**{_title(game_id)}**"))
        counts = _tally((r.players, x.won) for r, x in these)
        lines.append("  by players: " + "; ".join(
            counts.line(n, f"{n}") for n in sorted(counts.played)))
        factions = _tally((x.faction or f"seat {x.seat + 1}", x.won) for _, x in these)
        lines.append("  by side: " + "; ".join(
            factions.line(f, str(f)) for f in sorted(factions.played, key=str)))
    return lines


def server_lines(results: Sequence[GameResult], game_id: str | None = None) -> list[str]:
    """Win rates per nation or faction, per game and player count, over every seat (human or AI)
    of the finished games in ``results``."""
    chosen = [r for r in results if game_id is None or r.game_id == game_id]
    if not chosen:
        return ["No finished game here yet." if game_id is None else f"No finished game of {_title(game_id)} here yet."]
    lines = [f"{count(len(chosen), 'finished game')}."]
    for gid in sorted({r.game_id for r in chosen}, key=_title):
        these = [r for r in chosen if r.game_id == gid]
        lines.append(f"**{_title(gid)}**: {count(len(these), 'game')}, "
                     f"{sum(1 for r in these if any(x.rated for x in r.seats))} rated")
        for n in sorted({r.players for r in these}):
            at_n = [r for r in these if r.players == n]
            t = _tally((x.faction or f"seat {x.seat + 1}", x.won) for r in at_n for x in r.seats)
            rates = sorted(t.played, key=lambda f: (-t.won[f] / t.played[f], str(f)))
            lines.append(f"  {count(n, 'player')} ({count(len(at_n), 'game')}): " + "; ".join(
                f"{f} {t.won[f]}/{t.played[f]} ({t.won[f] / t.played[f]:.0%})" for f in rates))
    return lines


def fit(lines: Sequence[str], limit: int = 1900, more: str = "") -> str:
    """``lines`` joined, cut at a line to ``limit`` characters, saying how many lines were left
    out (and ``more``: how to narrow the question)."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 80:
            out.append(f"… {len(lines) - i} more lines{more}.")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


# ---------------------------------------------------------------- tabula simulate's report

_SIM_HEAD = re.compile(r"^(?P<title>.+): (?P<games>\d+) games?, (?P<players>[\d-]+) players?, (?P<agents>\w+) agents")
_SIM_ROW = re.compile(r"^  (?P<label>.+?)\s+(?P<games>\d+)\s+(?P<wins>\d+)\s+(?P<rate>[\d.]+)%$")


@dataclass(frozen=True)
class Simulated:
    """The win table of one ``tabula simulate`` report: label -> (games, wins)."""

    title: str
    players: str
    agents: str
    rows: dict[str, tuple[int, int]]


def read_simulate(text: str) -> list[Simulated]:
    """The reports in ``text`` (the output of one or more ``tabula simulate`` runs).

    Raises ValueError when no report is found."""
    out: list[Simulated] = []
    head = None
    rows: dict[str, tuple[int, int]] = {}
    in_table = False
    for line in text.splitlines():
        m = _SIM_HEAD.match(line)
        if m:
            if head:
                out.append(Simulated(head["title"], head["players"], head["agents"], rows))
            head, rows, in_table = m, {}, False
            continue
        if line.startswith("win rate ("):
            in_table = True
            continue
        row = _SIM_ROW.match(line) if in_table else None
        if row and row["label"].strip() not in ("nation", "seat"):
            rows[row["label"].strip()] = (int(row["games"]), int(row["wins"]))
        elif in_table and not line.startswith("  "):
            in_table = False
    if head:
        out.append(Simulated(head["title"], head["players"], head["agents"], rows))
    if not out:
        raise ValueError("no `tabula simulate` report found (its first line reads "
                         "'<game>: N games, P players, heuristic agents, seed S')")
    return out


def compare_lines(results: Sequence[GameResult], sims: Sequence[Simulated],
                  title_of: Callable[[str], str] = _title) -> list[str]:
    """Per simulated game, each nation's (or seat's) win rate in the stored games next to the
    AI's in the simulation."""
    lines = []
    for sim in sims:
        gids = [r.game_id for r in results if title_of(r.game_id) == sim.title]
        played = [r for r in results if r.game_id in gids]
        t = _tally((x.faction or f"seat {x.seat + 1}", x.won) for r in played for x in r.seats)
        lines.append(f"{sim.title}: {len(played)} stored games here; simulated with {sim.agents} agents, "
                     f"{sim.players} player{'' if sim.players == '1' else 's'}")
        for label in sorted(set(sim.rows) | {str(k) for k in t.played}):
            g, w = sim.rows.get(label, (0, 0))
            mine = (f"{t.won[label]}/{t.played[label]} ({t.won[label] / t.played[label]:.0%})"
                    if t.played[label] else "none")
            ai = f"{w}/{g} ({w / g:.0%})" if g else "none"
            lines.append(f"  {label}: here {mine}; simulated {ai}")
    return lines
