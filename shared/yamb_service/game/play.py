"""The actions of play, each one change of one game through the write path: the dice, the
sheet, resigning and the finish offer, seeds, and a scorekeeping table's typed dice and
corrections."""

from collections.abc import Callable
from datetime import datetime

from yamb.protocol import (
    AddSeed,
    Announce,
    CommitSeed,
    CorrectTurn,
    EnterDice,
    FinishSheet,
    Lock,
    Pause,
    Resign,
    Resume,
    RevealSeed,
    Roll,
    Select,
    Write,
)
from yamb.session import fairplay, leaving, lobby, pausing, scorekeeping, seeds, turns
from yamb.session.deadlines import merged
from yamb.session.effects import Effects
from yamb.session.model import GameSession

from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.writes import ActionChange, mutate
from yamb_service.social.fairplay import service as fair_checks

type PlayAction = (
    AddSeed
    | Announce
    | CommitSeed
    | CorrectTurn
    | EnterDice
    | FinishSheet
    | Lock
    | Pause
    | Resign
    | Resume
    | RevealSeed
    | Roll
    | Select
    | Write
)


def _play(
    ctx: GameContext, caller: Caller, action: PlayAction, now: datetime, change: ActionChange
) -> None:
    mutate(ctx, caller, action, action.game_id, change, now)


def _move(
    ctx: GameContext,
    caller: Caller,
    action: PlayAction,
    now: datetime,
    move: Callable[[GameSession], Effects | None],
) -> None:
    """A move of the dice or the sheet: refused while the player's fair-play check is open (a
    check past its deadline is a yellow card, and the move goes ahead)."""
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: fairplay.guard(s, player, now, lambda: move(s)))


def lock(ctx: GameContext, caller: Caller, action: Lock, now: datetime) -> None:
    player = caller.player_id
    _move(ctx, caller, action, now, lambda s: turns.lock(s, player, action.keep, action.turn))


def roll(ctx: GameContext, caller: Caller, action: Roll, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    keep, turn, seen = action.keep, action.turn, action.roll
    _move(
        ctx,
        caller,
        action,
        now,
        lambda s: turns.roll(s, player, keep, turn, dice, seen=seen, now=now),
    )


def announce(ctx: GameContext, caller: Caller, action: Announce, now: datetime) -> None:
    player, column, row = caller.player_id, action.column, action.row
    _move(ctx, caller, action, now, lambda s: turns.announce(s, player, column, row, action.turn))


def select(ctx: GameContext, caller: Caller, action: Select, now: datetime) -> None:
    player, column, row = caller.player_id, action.column, action.row
    _move(ctx, caller, action, now, lambda s: turns.select(s, player, column, row, action.turn))


def write(ctx: GameContext, caller: Caller, action: Write, now: datetime) -> None:
    """The write, and after it (in the same write of the game) a fair-play check for the player
    when their record, kept in their seat, and this game's decisions show a signal
    (docs/social.md, "Fair play")."""
    player, dice, column, row = caller.player_id, ctx.dice, action.column, action.row
    check_id = fair_checks.new_check_id()

    def written(s: GameSession) -> Effects:
        effects = turns.write(s, player, column, row, action.turn, now=now, dice=dice)
        judged = fairplay.judge(s, player, now, check_id, fair_checks.picker())
        return merged(effects, judged)

    _move(ctx, caller, action, now, written)


def pause(ctx: GameContext, caller: Caller, action: Pause, now: datetime) -> None:
    """The turn clock freezes (the timers follow the game's deadlines: the turn's lane or wake
    is no longer counted on, and the return deadline gets its wake)."""
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: pausing.pause(s, player, action.turn, now))


def resume(ctx: GameContext, caller: Caller, action: Resume, now: datetime) -> None:
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: pausing.resume(s, player, action.turn, now))


def resign(ctx: GameContext, caller: Caller, action: Resign, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    _play(ctx, caller, action, now, lambda s: leaving.resign(s, player, now, dice))


def finish_sheet(ctx: GameContext, caller: Caller, action: FinishSheet, now: datetime) -> None:
    player, dice, accept = caller.player_id, ctx.dice, action.accept
    _play(
        ctx,
        caller,
        action,
        now,
        lambda s: leaving.answer_finish_offer(s, player, accept, now, dice),
    )


def add_seed(ctx: GameContext, caller: Caller, action: AddSeed, now: datetime) -> None:
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: lobby.add_seed(s, player, action.seed))


def commit_seed(ctx: GameContext, caller: Caller, action: CommitSeed, now: datetime) -> None:
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: seeds.commit(s, player, action.commitment))


def reveal_seed(ctx: GameContext, caller: Caller, action: RevealSeed, now: datetime) -> None:
    """The seed committed to; the last one in rolls the first dice (in the same write)."""
    player, dice = caller.player_id, ctx.dice
    _play(ctx, caller, action, now, lambda s: seeds.reveal(s, player, action.seed, now, dice))


def enter_dice(ctx: GameContext, caller: Caller, action: EnterDice, now: datetime) -> None:
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: turns.enter_dice(s, player, action.dice, action.turn))


def correct_turn(ctx: GameContext, caller: Caller, action: CorrectTurn, now: datetime) -> None:
    player, line = caller.player_id, action.line
    corrected = action.turn.model_dump(exclude_none=True)
    _play(ctx, caller, action, now, lambda s: scorekeeping.correct(s, player, line, corrected, now))
