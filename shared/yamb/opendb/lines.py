"""A game as the open database publishes it: one JSON line per game.

What a line holds is what a reader needs to replay the game and recompute every die: the rule
set, the dates, the outcome, each seat's nickname and total, the dice record in the very form
`yamb verify` takes (the `verify` action's answer, docs/dice.md: the revealed server seed, its
commitment, the players' seeds, the scheme, each turn's dice) and each turn's moves. Nothing
else of a player: no account id beside the nickname, no e-mail, no chat, no connection, no
fair-play data.

A game is staged when it ends (`staged_of`, from the stream: the game item holding the seed is
kept 30 days only) with its people's seats as player ids; the monthly export turns those ids
into the nicknames the accounts bear then (`export_line`), so a purged account is its id name,
as everywhere else. One exception, which the dice scheme imposes: a player who set a seed of
their own appears as the key of that seed in `dice.clientSeeds` (the key derivation mixes in
`player=seed` lines, docs/dice.md) and of its commitment in `dice.commitments` (`yamb-dice/3`:
the seed is checked against it), as on the game's public fairness page; a test holds that no
id appears anywhere else.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb import fair_dice
from yamb.opendb.views import LINE_FORMAT
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession, Outcome
from yamb.session.results import result_of
from yamb.session.views import dice_record
from yamb.settings import GameSettings

# The dice record's fields a line keeps: what `yamb verify` reads. The frame's envelope
# (`type`, `requestId`) and the server's own verdict (`seedMatchesCommitment`, `mismatch`) are
# left out: a reader works them out.
# `withheld` names players and checks nothing: a verifier needs the seeds and commitments only.
_DICE_LEFT_OUT = frozenset(
    {"type", "request_id", "seed_matches_commitment", "mismatch", "withheld"}
)


class _Line(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, frozen=True, extra="forbid"
    )


class StagedSeat(_Line):
    """A seat as staged at the game's end: a person by id (named at the export), a bot by its
    table name."""

    player_id: str | None = None
    bot: str | None = Field(default=None, description="a bot's level; None: a person")
    bot_name: str | None = None
    total: int
    full: bool
    left: bool
    winner: bool


class StagedGame(_Line):
    """A finished public game as the results function stages it for its month's export."""

    game_id: str
    settings: GameSettings
    created_at: datetime
    ended_at: datetime
    outcome: Outcome | None
    tournament: str | None = None
    seats: list[StagedSeat]
    dice: dict[str, Any]
    moves: list[str]


class SeatLine(_Line):
    nickname: str = Field(description="the player's nickname at the export; a bot's table name")
    bot: str | None = Field(default=None, description="a bot's level; null: a person")
    total: int
    full: bool = Field(description="the sheet was filled")
    left: bool = Field(description="the player left before the end")
    winner: bool


class GameLine(_Line):
    """One line of a month's file."""

    format: Literal["yamb-game/1"] = LINE_FORMAT
    id: str
    rules: GameSettings = Field(description="the rule set: grid, columns or preset, dice, ...")
    play: Literal["individual", "pairs"] = Field(description="each for themself or 2 vs 2")
    created_at: datetime
    ended_at: datetime
    outcome: Outcome | None
    tournament: str | None = None
    seats: list[SeatLine] = Field(description="in seat order: seat n is `n` in the records")
    dice: dict[str, Any] = Field(description="the dice record, as `yamb verify` takes it")
    moves: list[str] = Field(
        description="per turn of `dice.turns`, its moves: `|a<col>.<row>@<roll>` an "
        "announcement, `|w<col>.<row>:<score>` a write (`!`: the clock's), `|p...` a 2 vs 2 "
        "proposal (docs/game.md)"
    )


def is_public(session: GameSession) -> bool:
    """Whether a game enters the open database: played to its end between at least two
    seats (solo practice, with its hints, is the player's own), not cancelled, on the server's
    verifiable dice (a scorekeeping table of real dice has no record), not of a duplicate
    tournament's deal (staged at its end, while other entrants may still play the same dice:
    yamb.session.deals; a duplicate's games are solo besides). There is no private game: every
    game's fairness page is public (docs/competition.md)."""
    return (
        session.status == "finished"
        and session.outcome != "cancelled"
        and not session.settings.solo
        and not session.settings.physical_dice
        and session.fair is not None
        and session.fair.deal is None
    )


def staged_of(session: GameSession, archived: Sequence[str]) -> StagedGame | None:
    """The game as its month's export will need it, or None when it is not public or its
    record is not whole (`archived`: its record's turns stored apart, oldest first)."""
    if not is_public(session) or session.fair is None:
        return None
    try:
        record = dice_record(session, "opendb", archived)
    except GameActionError:
        return None  # a record that lost a chunk proves nothing
    lines = [*archived, *session.fair.turns]
    result = result_of(session)
    winners = set(result.winners)
    seats = [
        StagedSeat(
            player_id=None if seat.bot is not None else player.player_id,
            bot=seat.bot,
            bot_name=seat.nickname if seat.bot is not None else None,
            total=player.total,
            full=player.full,
            left=player.left,
            winner=player.player_id in winners,
        )
        for seat, player in zip(session.seats, result.players, strict=True)
    ]
    dice = record.model_dump(mode="json", by_alias=True, exclude=set(_DICE_LEFT_OUT))
    return StagedGame(
        game_id=session.game_id,
        settings=session.settings,
        created_at=session.created_at,
        ended_at=result.ended_at,
        outcome=session.outcome,
        tournament=session.tournament,
        seats=seats,
        dice=dice,
        moves=[line[len(fair_dice.dice_part(line)) :] for line in lines],
    )


def export_line(staged: StagedGame, nicknames: Mapping[str, str]) -> GameLine:
    """The published line: each person's seat named as `nicknames` says (the accounts' names
    at the export; a purged account's is its id name), a bot by its table name."""
    seats = [
        SeatLine(
            nickname=(seat.bot_name or "") if seat.player_id is None else nicknames[seat.player_id],
            bot=seat.bot,
            total=seat.total,
            full=seat.full,
            left=seat.left,
            winner=seat.winner,
        )
        for seat in staged.seats
    ]
    return GameLine(
        id=staged.game_id,
        rules=staged.settings,
        play="pairs" if staged.settings.pairs else "individual",
        created_at=staged.created_at,
        ended_at=staged.ended_at,
        outcome=staged.outcome,
        tournament=staged.tournament,
        seats=seats,
        dice=staged.dice,
        moves=staged.moves,
    )


def people(staged: StagedGame) -> list[str]:
    """The player ids of a staged game's people (whose nicknames the export reads)."""
    return [seat.player_id for seat in staged.seats if seat.player_id is not None]
