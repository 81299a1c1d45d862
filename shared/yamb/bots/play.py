"""Bots playing whole games through the engine, with dice from a DiceSource: for tests,
benchmarks and tuning (the game service applies a bot's moves its own way)."""

from collections.abc import Callable, Sequence

from yamb.bots import choose as choose_move
from yamb.bots.levels import Level
from yamb.bots.moves import AnnounceMove, BotMove, RollMove
from yamb.dice import DiceSource, roll_all, roll_unlocked
from yamb.game import Game, WriteResult


def apply(game: Game, move: BotMove, source: DiceSource) -> WriteResult | None:
    """Makes the move in the engine (which raises on an illegal one); a write's result."""
    if isinstance(move, RollMove):
        if not game.roll:
            game.start_turn(roll_all(source, game.layout.dice_count))
        else:
            game.reroll(roll_unlocked(source, game.dice, move.keep))
        return None
    if isinstance(move, AnnounceMove):
        game.announce(move.column, move.row)
        return None
    return game.write(move.column, move.row)


def play(
    game: Game,
    levels: Sequence[Level],
    source: DiceSource,
    choose: Callable[[Game, Level], BotMove] = choose_move,
) -> list[WriteResult]:
    """Plays a turn-by-turn game to its end, seat s at levels[s]; every write's result."""
    writes = []
    while not game.finished:
        result = apply(game, choose(game, levels[game.seat]), source)
        if result is not None:
            writes.append(result)
    return writes
