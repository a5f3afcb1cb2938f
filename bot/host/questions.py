"""Questions: what each seat is asked, as the adapters show it (``PromptInfo``: choices,
the choice tree, "What do these do?"), following a click through the choices
(``choice``), and the question tokens an intent is judged against (trust invariant 4).
Mixed into ``bot.host.service.Host``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game, GameError, NotYourTurnError, Prompt, Seat, get_game
from games.core.choices import ChoiceError, ChoiceTree, noted
from games.core.errors import list_words
from games.core.explain import named_in
from games.core.secrets import TrackingRng
from storage import SessionRecord

from .common import MAX_CHOICES, MAX_REPEAT, MAX_TREE, REPEAT_MARK, TREES_KEPT
from .errors import OutdatedActionError
from .replies import ChoiceResult, PromptInfo, parse_token, prompt_token


class QuestionsMixin:
    """What each seat is asked, its choices, and the tokens intents are judged against."""

    def _prompt_infos(
        self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt] | None = None
    ) -> list[PromptInfo]:
        prompts = game.to_act(state) if prompts is None else prompts
        out = []
        for seat in sorted(prompts):
            p = prompts[seat]
            choices = self._choices(game, state, seat)
            holder = rec.seats[seat] if seat < len(rec.seats) else None
            human = holder is not None and holder.user_id is not None
            tree = self._tree(game, rec, state, seat) if human else None
            out.append(PromptInfo(seat, holder.user_id if holder else None, p.kind, p.text, choices,
                                  rec.deadline if p.kind == "respond" else rec.wait_deadline if human else None,
                                  prompt_token(rec.seq, p.kind, p.text, choices),
                                  self._explains(game, state, seat, choices),
                                  noted(tree.step(), game.option_notes(state, seat)) if tree is not None else None,
                                  self._shown(rec, seat, p.text),
                                  game.phase_word if human and self._pass_action(game, state, seat) is not None
                                  else ""))
        return out

    def _tree(self, game: Game, rec: SessionRecord, state: Any, seat: Seat) -> ChoiceTree | None:
        """The choices leading to each of ``seat``'s legal actions in ``state`` (the session's
        state after action ``rec.seq``); None when there are more than ``MAX_TREE``."""
        key = (rec.id, rec.seq, seat)
        if key in self._trees:
            self._trees.move_to_end(key)
            return self._trees[key]
        legal = list(itertools.islice(game.legal_actions(state, seat), MAX_TREE + 1))
        tree = None
        if 0 < len(legal) <= MAX_TREE:
            notations = [game.format_action(state, a) for a in legal]
            repeats = self._repeats(game, rec, state, seat, legal) if len(legal) <= MAX_CHOICES else {}
            tree = ChoiceTree(itertools.chain.from_iterable(
                [n, *(f"{n} {REPEAT_MARK}{k}" for k in range(2, repeats.get(i, 1) + 1))]
                for i, n in enumerate(notations)))
        self._trees[key] = tree
        while len(self._trees) > TREES_KEPT:
            self._trees.popitem(last=False)
        return tree

    def _repeats(self, game: Game, rec: SessionRecord, state: Any, seat: Seat, legal: Sequence[Any]) -> dict[int, int]:
        """For a turn that asks the same again after an action (a set-up placing 8 units one
        by one: "place Rome's final units (8 left)", then 7 left...), how many times in a row
        each legal action (by index) can be played: the seat alone is asked again, the same
        question but for its numbers, the action legal again, and nothing drawn at random (so
        the count is known now). Only counts of 2 or more are listed."""
        prompts = game.to_act(state)
        if set(prompts) != {seat} or prompts[seat].kind != "turn":
            return {}
        shape = re.sub(r"\d+", "#", prompts[seat].text)
        out: dict[int, int] = {}
        for i, action in enumerate(legal):
            s, times = state, 0
            try:
                while times < MAX_REPEAT:
                    rng = TrackingRng(rec.seed, rec.seq + times + 1)
                    s = game.apply(s, seat, action, rng).state
                    times += 1
                    asked = game.to_act(s)
                    if (rng.draws or set(asked) != {seat} or asked[seat].kind != "turn"
                            or re.sub(r"\d+", "#", asked[seat].text) != shape
                            or action not in list(itertools.islice(game.legal_actions(s, seat), MAX_CHOICES + 1))):
                        times -= bool(rng.draws)
                        break
            except Exception:  # noqa: BLE001 - a count is only offered; playing the action reports its failure
                times = 0
            if times >= 2:
                out[i] = times
            elif i >= 2 and not out:
                break  # the first actions do not repeat: this is no such turn
        return out

    async def choice_tree(self, session_id: int, seat: Seat) -> ChoiceTree | None:
        """The choices the seat is offered now (``PromptInfo.step`` is their first step);
        None when the seat is not asked or has too many legal actions to list."""
        rec = await self.storage.get_session(session_id)
        game = get_game(rec.game_id)
        state = await self._state(game, rec)
        return self._tree(game, rec, state, seat) if seat in game.to_act(state) else None

    async def choice(self, session_id: int, user_id: int, token: str, path: Sequence[int],
                     picks: Sequence[int] | None = None) -> ChoiceResult:
        """Follow a click among the choices of the question ``token`` names
        (``PromptInfo.step``): ``path`` is the option indices chosen from the first step,
        ``picks`` the items picked at a multi-select step. Returns the next step to show, or
        the action the choices name (the adapter then plays it with ``act(prompt=token)``,
        which judges it again). Changes nothing.

        What this process knows of the session answers without a read when it has the state
        and the click is among the choices it shows (it changes nothing, and ``act`` judges
        the action again); a refusal is only ever given from a read, which may show a newer
        question another process asked.

        Raises NoSessionError, GameOverError, NotSeatedError, NotYourTurnError (the seat was
        not asked), OutdatedActionError (the seat's question changed since, or the path is
        not among its choices; the message says what is asked now)."""
        known = self._known_record(session_id)
        if known is not None:
            try:
                return await self._choice_in(known, user_id, token, path, picks)
            except GameError:
                pass
        return await self._choice_in(await self.storage.get_session(session_id), user_id, token, path, picks)

    async def _choice_in(self, rec: SessionRecord, user_id: int, token: str, path: Sequence[int],
                         picks: Sequence[int] | None) -> ChoiceResult:
        """``choice`` in the session as ``rec`` shows it."""
        game = get_game(rec.game_id)
        self._require_active(rec)
        seat = self._require_seat(rec, user_id).seat
        state = await self._state(game, rec)
        prompts = game.to_act(state)
        if seat not in prompts:
            waiting = list_words([f"{self._who(rec, s)} ({p.text})" for s, p in sorted(prompts.items())])
            raise OutdatedActionError("That choice belongs to an earlier question; nothing is asked of you "
                                      f"now; waiting for {waiting}.")
        await self._judge_intent(game, rec, state, prompts, seat, token)
        tree = self._tree(game, rec, state, seat)
        try:
            if tree is None:
                raise ChoiceError("too many legal actions to list")
            action = tree.resolve(path, picks)
            step = tree.step(path) if action is None else None
        except ChoiceError:
            raise OutdatedActionError("That choice is not offered any more; nothing was applied. "
                                      f"You are asked now: {prompts[seat].text}") from None
        choices = self._choices(game, state, seat)
        if step is not None:
            step = noted(step, game.option_notes(state, seat))
        phase_pass = game.phase_word if step is not None and not step.path \
            and self._pass_action(game, state, seat) is not None else ""
        return ChoiceResult(step, action, prompts[seat].text, self._game_name(rec),
                            self._explains(game, state, seat, choices), phase_pass)

    EXPLAIN_SAMPLE = 60  # legal actions read to decide on "What do these do?" for a large decision

    @classmethod
    def _explains(cls, game: Game, state: Any, seat: Seat, choices: tuple[str, ...]) -> bool:
        """Whether the seat's options name things the game explains: its choices when listed,
        else the first ``EXPLAIN_SAMPLE`` legal actions (a war's card combinations)."""
        options = choices or tuple(
            game.format_action(state, a)
            for a in itertools.islice(game.legal_actions(state, seat), cls.EXPLAIN_SAMPLE)
        )
        return bool(named_in(game.explanations(), options))

    @staticmethod
    def _not_offered(game: Game, state: Any, seat: Seat) -> list[str]:
        """The seat's private line on what its prompt names but the rules do not offer it now,
        and why (the game's ``not_offered(state, seat)``); [] when none."""
        lines = list(game.not_offered(state, seat))
        return ["Not offered now: " + "; ".join(lines) + "."] if lines else []

    @staticmethod
    def _choices(game: Game, state: Any, seat: Seat) -> tuple[str, ...]:
        """The seat's legal actions in notation when there are at most ``MAX_CHOICES``, else ()."""
        legal = list(itertools.islice(game.legal_actions(state, seat), MAX_CHOICES + 1))
        return () if len(legal) > MAX_CHOICES else tuple(game.format_action(state, a) for a in legal)

    def _token_of(self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt],
                  seat: Seat) -> str | None:
        """The seat's question now as a ``prompt_token``; None when the seat is not asked."""
        p = prompts.get(seat)
        return None if p is None else prompt_token(rec.seq, p.kind, p.text, self._choices(game, state, seat))

    async def question_token(self, channel_id: int, user_id: int, *, session_id: int | None = None) -> str | None:
        """What the user's seat is asked at this moment, as a ``prompt_token`` ("" when the
        seat is not asked; None when there is no started game or no seat: the action will be
        refused for that reason anyway). An adapter calls it on receipt of a typed action and
        passes the result to ``act(prompt=...)``; ``act`` does so itself when given neither
        ``prompt`` nor ``version``. Raises nothing.

        "This moment" is the call, not the end of its database read: what this process knows
        of the session is taken first, without waiting, and kept when the read shows that
        only this process's own later commits came in between (an action handled meanwhile
        does not move the receipt of this one); otherwise the read decides."""
        known = self._known_token(channel_id, user_id, session_id)
        read = await self._read_token(channel_id, user_id, session_id)
        if known is None or read is None or read[0] != known[0]:
            return None if read is None else read[2]
        sid, version, commits, token = known
        mine_since = self._commits.get(sid, 0) - commits
        return token if read[1] - version == mine_since else read[2]

    def _known_token(self, channel_id: int, user_id: int,
                     session_id: int | None) -> tuple[int, int, int, str] | None:
        """(session, version, own commits, token) from memory alone, or None."""
        sid = session_id if session_id is not None else self._by_channel.get(channel_id)
        rec = self._latest.get(sid) if sid is not None else None
        hit = self._cache.get(sid) if sid is not None else None
        if rec is None or hit is None or hit[0] != rec.version or rec.status != "active":
            return None
        seat = rec.seat_of(user_id)
        if seat is None or rec.channel_id != channel_id:
            return None
        if seat.seat not in rec.to_act:
            return rec.id, rec.version, self._commits.get(rec.id, 0), ""
        game = get_game(rec.game_id)
        token = self._token_of(game, rec, hit[1], game.to_act(hit[1]), seat.seat) or ""
        return rec.id, rec.version, self._commits.get(rec.id, 0), token

    async def _read_token(self, channel_id: int, user_id: int,
                          session_id: int | None) -> tuple[int, int, str | None] | None:
        """(session, version, token) from the database, or None without a game."""
        try:
            rec = await self._find(channel_id, session_id)
        except GameError:
            return None
        seat = rec.seat_of(user_id)
        if rec.status != "active" or seat is None:
            return rec.id, rec.version, None
        if seat.seat not in rec.to_act:
            return rec.id, rec.version, ""
        game = get_game(rec.game_id)
        state = await self._state(game, rec)
        return rec.id, rec.version, self._token_of(game, rec, state, game.to_act(state), seat.seat) or ""

    async def _judge_intent(self, game: Game, rec: SessionRecord, state: Any, prompts: Mapping[Seat, Prompt],
                            seat: Seat, seen: str) -> None:
        """Refuse an action whose sender saw another question than the seat's question now
        (design, trust invariant 4). ``seen`` is a ``prompt_token``, or "" when the seat was
        not asked when the action was sent.

        Raises NotYourTurnError (not asked then), OutdatedActionError (asked something else
        then, or nothing now, or the seat acted since)."""
        current = self._token_of(game, rec, state, prompts, seat)
        now = (f"You are asked now: {prompts[seat].text}" if current is not None else
               "Nothing is asked of you now; waiting for "
               + list_words([f"{self._who(rec, s)} ({p.text})" for s, p in sorted(prompts.items())]) + ".")
        if seen == "":
            raise NotYourTurnError("It was not your turn when you sent that, so nothing was applied. " + now)
        then = parse_token(seen)
        if then is None:
            raise OutdatedActionError("That choice is not understood any more; nothing was applied. " + now)
        outdated = ("Your action answered an earlier question; the game moved on before it arrived, so "
                    "nothing was applied. ")
        if current is None or then[0] > rec.seq or parse_token(current)[1] != then[1]:  # type: ignore[index]
            raise OutdatedActionError(outdated + now)
        if then[0] < rec.seq:
            rows = await self.storage.actions(rec.id, after=then[0], through=rec.seq)
            if any(r.seat == seat for r in rows):
                raise OutdatedActionError(outdated + now)
