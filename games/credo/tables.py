"""The four dice tables of Credo, exactly as printed (rule text: Tables).

Each table maps the total of two six-sided dice (2..12) to its printed result text
and to the structured result the rules apply. The actor is the Church that rolls:
the Emperor (Respect), the preaching Church (Proselytism), the Church Father's
Church (Refutation), the persecutor (Persecution). RULINGS.md R8-R11.
"""

from __future__ import annotations

from typing import NamedTuple


class Result(NamedTuple):
    """What a roll does. ``take``: cards the actor takes from the target, by kind;
    ``remove``: cards the actor removes (discards) from the target, by kind;
    ``actor_draws`` / ``actor_loses_followers`` / ``target_draws``: Church cards;
    ``persecute``: the target's Laity persecute the actor; ``lose_bishop``: the
    nominated Bishop is lost; ``refute``: which categories are refuted."""

    text: str
    take: tuple[tuple[str, int], ...] = ()
    remove: tuple[tuple[str, int], ...] = ()
    actor_draws: int = 0
    actor_loses_followers: int = 0
    target_draws: int = 0
    persecute: bool = False
    lose_bishop: bool = False
    refute: tuple[str, ...] = ()


RESPECT: dict[int, Result] = {
    2: Result("Take 2 Laity cards.", take=(("laity", 2),)),
    3: Result("Take 1 Laity card.", take=(("laity", 1),)),
    4: Result("Take 1 Bishop & 2 Follower cards.", take=(("bishop", 1), ("follower", 2))),
    5: Result("Take 2 Follower cards.", take=(("follower", 2),)),
    6: Result("Take 1 Bishop & 1 Follower cards.", take=(("bishop", 1), ("follower", 1))),
    7: Result("Take 1 Follower card.", take=(("follower", 1),)),
    8: Result("Take 1 Follower card.", take=(("follower", 1),)),
    9: Result("Draw 2 Church cards.", actor_draws=2),
    10: Result("No effect."),
    11: Result("Lose 1 Follower card.", actor_loses_followers=1),
    12: Result("Lose 2 Follower cards.", actor_loses_followers=2),
}

PROSELYTISM: dict[int, Result] = {
    2: Result(
        "Take 1 Laity, & 2 Bishop or 3 Follower cards.", take=(("laity", 1), ("bishop-or-followers", 1))
    ),
    3: Result("Take 2 Bishop & 2 Follower cards.", take=(("bishop", 2), ("follower", 2))),
    4: Result("Take 2 Bishop & 2 Follower cards.", take=(("bishop", 2), ("follower", 2))),
    5: Result("Take 1 Bishop & 1 Follower cards.", take=(("bishop", 1), ("follower", 1))),
    6: Result("Take 1 Bishop & 1 Follower cards.", take=(("bishop", 1), ("follower", 1))),
    7: Result("Take 1 Follower card.", take=(("follower", 1),)),
    8: Result("Take 1 Follower card.", take=(("follower", 1),)),
    9: Result("Take 1 Follower card. Laity can Persecute.", take=(("follower", 1),), persecute=True),
    10: Result("Laity can Persecute.", persecute=True),
    11: Result("Laity can Persecute.", persecute=True),
    12: Result("Enraged rioters lynch the Bishop. Lose the Bishop.", lose_bishop=True),
}

REFUTATION: dict[int, Result] = {
    2: Result("Refute a Firm Belief or a Customary Practice.", refute=("firm", "customary")),
    3: Result("Refute a Firm Belief or a Customary Practice.", refute=("firm", "customary")),
    4: Result("Refute a Firm Belief or a Customary Practice.", refute=("firm", "customary")),
    5: Result("Refute a Firm Belief or a Customary Practice.", refute=("firm", "customary")),
    6: Result("Refute a Customary Practice.", refute=("customary",)),
    7: Result("Refute a Customary Practice.", refute=("customary",)),
    8: Result("Refute a Customary Practice.", refute=("customary",)),
    9: Result("No effect."),
    10: Result("No effect."),
    11: Result("Laity can Persecute.", persecute=True),
    12: Result("Lose the Bishop.", lose_bishop=True),
}

PERSECUTION: dict[int, Result] = {
    2: Result("Remove 2 Bishop cards.", remove=(("bishop", 2),)),
    3: Result("Remove 1 Bishop card.", remove=(("bishop", 1),)),
    4: Result("Remove 2 Follower cards.", remove=(("follower", 2),)),
    5: Result("Remove 2 Follower cards.", remove=(("follower", 2),)),
    6: Result("Remove 1 Follower card.", remove=(("follower", 1),)),
    7: Result("Remove 1 Follower card.", remove=(("follower", 1),)),
    8: Result("Remove 1 Follower card.", remove=(("follower", 1),)),
    9: Result("Remove 1 Follower card.", remove=(("follower", 1),)),
    10: Result("No effect."),
    11: Result(
        "Remove 3 Follower cards. The Persecuted Church draws 1 Church card.",
        remove=(("follower", 3),),
        target_draws=1,
    ),
    12: Result(
        "Remove 1 Follower card. The Persecuted Church draws 3 Church cards.",
        remove=(("follower", 1),),
        target_draws=3,
    ),
}

TABLES = {
    "Respect": RESPECT,
    "Proselytism": PROSELYTISM,
    "Refutation": REFUTATION,
    "Persecution": PERSECUTION,
}
