"""Coins taken from and paid to the finite Coin Supply (Coin Supply; RULINGS R5).

(Rule text: shared/seeds/002; rulings: RULINGS.md.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Seat

from ..model import CoinsChanged
from ..queries import add_coins
from .context import _Ctx


def gain(game: Any, ctx: _Ctx, seat: Seat, want: Sequence[int], reason: str) -> tuple[int, int, int]:
    """Take coins from the finite supply (Coin Supply: none left, none collected)."""
    got = tuple(min(w, have) for w, have in zip(want, ctx.s.coin_supply, strict=True))
    ctx.update(coin_supply=add_coins(ctx.s.coin_supply, got, -1))
    ctx.set_player(seat, coins=add_coins(ctx.s.players[seat].coins, got))
    short = "" if tuple(want) == got else " (the supply ran short)"
    ctx.emit(CoinsChanged(seat=seat, delta=got, reason=reason + short))  # type: ignore[arg-type]
    return got  # type: ignore[return-value]


def pay(game: Any, ctx: _Ctx, seat: Seat, pay: Sequence[int], reason: str) -> None:
    """``seat`` pays coins back to the supply."""
    ctx.update(coin_supply=add_coins(ctx.s.coin_supply, pay))
    ctx.set_player(seat, coins=add_coins(ctx.s.players[seat].coins, pay, -1))
    ctx.emit(CoinsChanged(seat=seat, delta=(-pay[0], -pay[1], -pay[2]), reason=reason))
