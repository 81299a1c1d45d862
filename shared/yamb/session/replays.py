"""Replays (product G8): every turn of a game as it was played, its rolls with the dice kept,
its announcement and its write, rebuilt from the game's record.

The record is the dice record (yamb.fair_dice) with each turn's moves after it, so one record
serves both the dice check and the replay: `0:3:35126;02:35146|a1.9@1|w1.9:40` is seat 0's turn
labelled 3, rolled twice, announced in column 1 row 9 after roll 1, written there for 40; a `!`
after the score marks a write the server made when the clock ran out, a 2 vs 2 first player's
part has a proposal (`|p`) instead of a write, and a turn that ended without a write (its player
left) has neither.
"""

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from yamb import fair_dice
from yamb.layout import Layout, layout_for
from yamb.protocol import (
    ReplayAnnouncementView,
    ReplayTurnView,
    ReplayWriteView,
    RollView,
)
from yamb.session.model import GameSession, Outcome
from yamb.settings import GameSettings

_MARK = fair_dice.MOVES_MARK


def moves(
    announced: tuple[int, int] | None,
    after_roll: int,
    cell: tuple[int, int],
    score: int,
    *,
    auto: bool,
    proposal: bool = False,
) -> str:
    """The moves of a turn as its record writes them after its dice: `p` for a 2 vs 2
    proposal, `w` for a write."""
    text = ""
    if announced is not None:
        text += f"{_MARK}a{announced[0]}.{announced[1]}@{after_roll}"
    kind = "p" if proposal else "w"
    return text + f"{_MARK}{kind}{cell[0]}.{cell[1]}:{score}{'!' if auto else ''}"


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class ReplayHeader(_View):
    """What a replay needs of the game besides its record; kept with the record once the game
    ends, since the record outlives the game item."""

    game_id: str
    settings: GameSettings
    players: list[str]
    winners: list[str]
    outcome: Outcome | None
    ended_at: datetime | None
    # The turns the game started: a record with fewer lost a chunk and does not replay.
    turns: int


def header_of(session: GameSession) -> ReplayHeader:
    return ReplayHeader(
        game_id=session.game_id,
        settings=session.settings,
        players=session.player_ids,
        winners=session.winners,
        outcome=session.outcome,
        ended_at=session.ended_at,
        turns=session.turn,
    )


def replay_turns(
    header: ReplayHeader, lines: Sequence[str], regrets: Sequence[float | None] | None = None
) -> list[ReplayTurnView]:
    """The turns of a record, in the order they ended (with each one's regret, when given)."""
    settings = header.settings
    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    turns = [_turn(layout, header.players, number, line) for number, line in enumerate(lines, 1)]
    if regrets is None:
        return turns
    return [
        turn.model_copy(update={"regret": lost}) for turn, lost in zip(turns, regrets, strict=True)
    ]


def _cell(layout: Layout, text: str) -> tuple[str, str]:
    column, row = (int(part) for part in text.split("."))
    return layout.columns[column].id, layout.grid.rows[row].id


def _turn(layout: Layout, players: Sequence[str], number: int, line: str) -> ReplayTurnView:
    recorded = fair_dice.parse_turn(line)
    announcement = write = proposal = None
    for part in line.split(_MARK)[1:]:
        if part.startswith("a"):
            cell, after = part[1:].split("@")
            column, row = _cell(layout, cell)
            announcement = ReplayAnnouncementView(column=column, row=row, after_roll=int(after))
        elif part[:1] in ("w", "p"):
            cell, score = part[1:].split(":")
            column, row = _cell(layout, cell)
            written = ReplayWriteView(
                column=column, row=row, score=int(score.rstrip("!")), auto=score.endswith("!")
            )
            if part[0] == "w":
                write = written
            else:
                proposal = written
    return ReplayTurnView(
        number=number,
        player_id=players[recorded.seat],
        rolls=[RollView(dice=list(r.dice), kept=list(r.kept)) for r in recorded.rolls],
        announcement=announcement,
        proposal=proposal,
        write=write,
    )
