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
    Resign,
    Roll,
    Select,
    Write,
)
from yamb.session import leaving, lobby, scorekeeping, turns

from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.writes import mutate


def lock(ctx: GameContext, caller: Caller, action: Lock, now: datetime) -> None:
    player = caller.player_id
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: turns.lock(s, player, action.keep, action.turn),
        now,
    )


def roll(ctx: GameContext, caller: Caller, action: Roll, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: turns.roll(s, player, action.keep, action.turn, dice),
        now,
    )


def announce(ctx: GameContext, caller: Caller, action: Announce, now: datetime) -> None:
    player = caller.player_id
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: turns.announce(s, player, action.column, action.row, action.turn),
        now,
    )


def select(ctx: GameContext, caller: Caller, action: Select, now: datetime) -> None:
    player = caller.player_id
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: turns.select(s, player, action.column, action.row, action.turn),
        now,
    )


def write(ctx: GameContext, caller: Caller, action: Write, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: turns.write(
            s, player, action.column, action.row, action.turn, now=now, dice=dice
        ),
        now,
    )


def resign(ctx: GameContext, caller: Caller, action: Resign, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    mutate(ctx, caller, action, action.game_id, lambda s: leaving.resign(s, player, now, dice), now)


def finish_sheet(ctx: GameContext, caller: Caller, action: FinishSheet, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: leaving.answer_finish_offer(s, player, action.accept, now, dice),
        now,
    )


def add_seed(ctx: GameContext, caller: Caller, action: AddSeed, now: datetime) -> None:
    player = caller.player_id
    mutate(
        ctx, caller, action, action.game_id, lambda s: lobby.add_seed(s, player, action.seed), now
    )


def enter_dice(ctx: GameContext, caller: Caller, action: EnterDice, now: datetime) -> None:
    player = caller.player_id
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: turns.enter_dice(s, player, action.dice, action.turn),
        now,
    )


def correct_turn(ctx: GameContext, caller: Caller, action: CorrectTurn, now: datetime) -> None:
    player = caller.player_id
    corrected = action.turn.model_dump(exclude_none=True)
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: scorekeeping.correct(s, player, action.line, corrected, now),
        now,
    )
