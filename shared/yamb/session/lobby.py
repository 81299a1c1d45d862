"""A table before its game starts (product G1-G3): create, join, leave, edit, delete, start."""

from datetime import datetime, timedelta
from typing import Any

from yamb import fair_dice
from yamb.dice import DiceSource
from yamb.economy.looks import Looks
from yamb.i18n import Text
from yamb.session import reminders, seeds, slow
from yamb.session.effects import (
    Effects,
    GameActionError,
    PlayerChange,
    require_creator,
    require_status,
)
from yamb.session.model import FairPlay, GameSession, PairsTurn, Seat
from yamb.session.presence import RETURN_WINDOW
from yamb.settings import GameSettings, validate_settings


def create(
    game_id: str,
    creator: str,
    connection_id: str | None,
    settings: GameSettings,
    now: datetime,
    *,
    server_seed: str,
    nickname: str | None = None,
    looks: Looks | None = None,
) -> GameSession:
    """A new table; its dice are fixed by `server_seed` (secret until the end), whose
    commitment every frame of the game shows."""
    return GameSession(
        game_id=game_id,
        created_at=now,
        creator=creator,
        settings=settings,
        seats=[
            Seat(player_id=creator, connection_id=connection_id, nickname=nickname, looks=looks)
        ],
        fair=FairPlay(
            server_seed=server_seed,
            commitment=fair_dice.commitment(server_seed),
            scheme=fair_dice.SCHEME,
        ),
    )


def add_seed(session: GameSession, player_id: str, seed: str) -> None:
    """Retired (`yamb-dice/3`): a seed sent in the clear before the start let whoever sent one
    last choose it against the others'. Seeds are committed (`commit_seed`) and revealed after
    the start (`reveal_seed`); see yamb.session.seeds. A table that would take no seed at all
    says why first, as it does to a commitment."""
    del seed
    require_status(session, "waiting")
    seeds.require_seeded(session, player_id)
    raise GameActionError(
        Text(
            "add_seed is retired: send your seed's SHA-256 with commit_seed while the table "
            "waits, and the seed with reveal_seed once it has started"
        ),
        code="seed_retired",
    )


def join(
    session: GameSession,
    player_id: str,
    connection_id: str | None,
    nickname: str | None = None,
    looks: Looks | None = None,
) -> Effects:
    require_status(session, "waiting")
    if session.tournament is not None:
        raise GameActionError(
            Text("this table is a tournament's: its seats are the pairing's"),
            code="tournament_table",
        )
    if session.seat_of(player_id) is not None:
        raise GameActionError(Text("you already sit at this table"), code="already_seated")
    if len(session.seats) >= session.settings.players:
        raise GameActionError(Text("the table is full"), code="table_full")
    session.seats.append(
        Seat(player_id=player_id, connection_id=connection_id, nickname=nickname, looks=looks)
    )
    return Effects(players={player_id: "seat"})


def leave_waiting(session: GameSession, player_id: str, now: datetime) -> Effects:
    """Leaves a table whose game has not started; the last one out removes it."""
    require_status(session, "waiting")
    seat = session.seat_of(player_id)
    if seat is None:
        raise GameActionError(Text("you do not sit at this table"), code="not_seated")
    del session.seats[seat]
    seeds.forget(session, player_id)
    people = [seat.player_id for seat in session.seats if seat.bot is None]
    if not people:  # the last person out removes the table, bots and all
        _remove(session, now)
        return Effects(players={player_id: "forget"}, removed=True)
    if player_id == session.creator:
        session.creator = people[0]
    return Effects(players={player_id: "forget"})


def creator_due(session: GameSession, now: datetime, tolerance: timedelta) -> datetime | None:
    """When the away creator of a waiting table was due back, if that has passed."""
    seat = session.seat_of(session.creator)
    if session.status != "waiting" or seat is None:
        return None
    deadline = session.seats[seat].return_deadline
    if deadline is None or session.seats[seat].present or deadline > now + tolerance:
        return None
    return deadline


def creator_gone(session: GameSession, now: datetime) -> Effects:
    """The creator of a waiting table closed every window and did not come back in time: the
    next seated person who is there gets the table (and its Start), else it is closed and
    everyone seated is free again. The old creator keeps their seat, away."""
    require_status(session, "waiting")
    gone = session.seats[session.seat_of(session.creator) or 0]
    gone.return_deadline = None
    there = [s.player_id for s in session.seats if s.bot is None and s.present]
    if there:
        session.creator = there[0]
        return Effects(returns_missed=1)
    forgotten: dict[str, PlayerChange] = dict.fromkeys(session.player_ids, "forget")
    _remove(session, now)
    return Effects(players=forgotten, removed=True, returns_missed=1)


def _remove(session: GameSession, now: datetime) -> None:
    """The table is gone; its item stays a day, so that a repeated request finds it."""
    session.status = "deleted"
    session.ended_at = now


def edit(
    session: GameSession,
    player_id: str,
    settings: dict[str, Any] | None,
    player_order: list[str] | None,
) -> None:
    """New settings or seat order for a waiting table (the service checks the account first)."""
    require_status(session, "waiting")
    require_creator(session, player_id, Text("only the creator can edit the game"))
    if settings is not None:
        new_settings = validate_settings(settings)
        if len(session.seats) > new_settings.players:
            raise GameActionError(
                Text("more players sit than the new settings allow"), code="too_many"
            )
        session.settings = new_settings
    if player_order is not None:
        if sorted(player_order) != sorted(session.player_ids):
            raise GameActionError(
                Text("the order must name every seated player once"), code="bad_player_order"
            )
        by_player = {seat.player_id: seat for seat in session.seats}
        session.seats = [by_player[p] for p in player_order]


def delete(session: GameSession, player_id: str, now: datetime) -> Effects:
    """The creator removes a waiting table; everyone seated is free again."""
    require_status(session, "waiting")
    require_creator(session, player_id, Text("only the creator can delete the game"))
    forgotten: dict[str, PlayerChange] = dict.fromkeys(session.player_ids, "forget")
    _remove(session, now)
    return Effects(players=forgotten, removed=True)


def start(session: GameSession, player_id: str, now: datetime, dice: DiceSource) -> None:
    require_status(session, "waiting")
    require_creator(session, player_id, Text("only the creator can start the game"))
    if len(session.seats) != session.settings.players:
        raise GameActionError(
            Text(
                "the table needs {players} players, {count} sit",
                players=session.settings.players,
                count=len(session.seats),
            ),
            code="table_not_full",
        )
    session.status = "running"
    if session.settings.physical_dice:
        session.fair = None  # the dice are rolled at the table: nothing to verify
    for seat in session.seats:
        seat.remind_at = None
        if not seat.present and session.settings.turn_type != "slow":
            seat.return_deadline = now + RETURN_WINDOW  # away when the game starts
    game = session.new_game()
    slow.schedule(session, now)
    if session.settings.pairs:
        session.pairs = PairsTurn()
    seeds.open_reveals(session, game, now, dice)  # the first turn, once the seeds are in
    session.store(game)
    for index, seat in enumerate(session.seats):
        if not seat.present:
            reminders.schedule(session, index, now)  # a slow game's away player (A8)
