"""The actions of play, each one change of one game through the write path: the dice, the
sheet, resigning and the finish offer, seeds, and a scorekeeping table's typed dice and
corrections."""

from datetime import datetime

from yamb.protocol import (
    AddSeed,
    Announce,
    CorrectTurn,
    EnterDice,
    FinishSheet,
    Lock,
    Pause,
    Resign,
    Resume,
    Roll,
    Select,
    Write,
)
from yamb.session import leaving, lobby, pausing, scorekeeping, turns

from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.writes import ActionChange, mutate

type PlayAction = (
    AddSeed
    | Announce
    | CorrectTurn
    | EnterDice
    | FinishSheet
    | Lock
    | Pause
    | Resign
    | Resume
    | Roll
    | Select
    | Write
)


def _play(
    ctx: GameContext, caller: Caller, action: PlayAction, now: datetime, change: ActionChange
) -> None:
    mutate(ctx, caller, action, action.game_id, change, now)


def lock(ctx: GameContext, caller: Caller, action: Lock, now: datetime) -> None:
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: turns.lock(s, player, action.keep, action.turn))


def roll(ctx: GameContext, caller: Caller, action: Roll, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    keep, turn, seen = action.keep, action.turn, action.roll
    _play(ctx, caller, action, now, lambda s: turns.roll(s, player, keep, turn, dice, seen=seen))


def announce(ctx: GameContext, caller: Caller, action: Announce, now: datetime) -> None:
    player, column, row = caller.player_id, action.column, action.row
    _play(ctx, caller, action, now, lambda s: turns.announce(s, player, column, row, action.turn))


def select(ctx: GameContext, caller: Caller, action: Select, now: datetime) -> None:
    player, column, row = caller.player_id, action.column, action.row
    _play(ctx, caller, action, now, lambda s: turns.select(s, player, column, row, action.turn))


def write(ctx: GameContext, caller: Caller, action: Write, now: datetime) -> None:
    player, dice, column, row = caller.player_id, ctx.dice, action.column, action.row
    _play(
        ctx,
        caller,
        action,
        now,
        lambda s: turns.write(s, player, column, row, action.turn, now=now, dice=dice),
    )


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


def enter_dice(ctx: GameContext, caller: Caller, action: EnterDice, now: datetime) -> None:
    player = caller.player_id
    _play(ctx, caller, action, now, lambda s: turns.enter_dice(s, player, action.dice, action.turn))


def correct_turn(ctx: GameContext, caller: Caller, action: CorrectTurn, now: datetime) -> None:
    player, line = caller.player_id, action.line
    corrected = action.turn.model_dump(exclude_none=True)
    _play(ctx, caller, action, now, lambda s: scorekeeping.correct(s, player, line, corrected, now))
