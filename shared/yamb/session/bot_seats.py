"""Bots at a waiting table (product G11): the creator seats them in free seats and removes them.

A bot game is practice: never ranked, paying nothing and counting for no task or board, so a
table that is ranked (or becomes so) takes no bot. Bots play turn by turn, simultaneous and each
for themself; not 2 vs 2 (a partner decides with a person), slow games (a bot would finish at
once) or scorekeeping tables (the dice are rolled by people at the table).
"""

from yamb.bots import Level, check_level
from yamb.i18n import Text
from yamb.session.effects import GameActionError, require_creator, require_status
from yamb.session.model import GameSession, Seat
from yamb.settings import GameSettings

BOT_PREFIX = "bot-"


def bots_refused(settings: GameSettings) -> Text | None:
    """Why a table of these settings takes no bot; None: it takes them."""
    if settings.ranked:
        return Text("a ranked game is played by people only")
    if settings.pairs:
        return Text("2 vs 2 is played by people only")
    if settings.turn_type == "slow":
        return Text("a slow game is played by people only")
    if settings.physical_dice:
        return Text("at a scorekeeping table people roll the dice")
    return None


def add_bot(session: GameSession, player_id: str, level: str) -> str:
    """Seats a bot of `level` in a free seat; its player id."""
    require_status(session, "waiting")
    require_creator(session, player_id, Text("only the creator can add a bot"))
    refusal = bots_refused(session.settings)
    if refusal is not None:
        raise GameActionError(refusal, code="bots_not_allowed")
    checked = _playable(level, session.settings.grid)
    if len(session.seats) >= session.settings.players:
        raise GameActionError(Text("the table is full"), code="table_full")
    taken = set(session.player_ids)
    number = next(n for n in range(1, len(taken) + 2) if f"{BOT_PREFIX}{n}" not in taken)
    bot_id = f"{BOT_PREFIX}{number}"
    session.seats.append(
        Seat(
            player_id=bot_id,
            nickname=f"{checked.title()} bot {number}",
            bot=checked,
            connection_id=None,
        )
    )
    return bot_id


def remove_bot(session: GameSession, player_id: str, bot_id: str) -> None:
    """The creator takes a bot's seat back."""
    require_status(session, "waiting")
    require_creator(session, player_id, Text("only the creator can remove a bot"))
    seat = session.seat_of(bot_id)
    if seat is None or session.seats[seat].bot is None:
        raise GameActionError(
            Text("no bot '{bot_id}' sits at this table", bot_id=bot_id[:40]), code="not_a_bot"
        )
    del session.seats[seat]


def check_settings_for_bots(session: GameSession, settings: GameSettings) -> None:
    """An edit of a table where bots sit keeps settings they can play."""
    bots = [seat for seat in session.seats if seat.bot is not None]
    if not bots:
        return
    refusal = bots_refused(settings)
    if refusal is not None:
        raise GameActionError(
            Text("{refusal}: remove the bots first", refusal=refusal), code="bots_not_allowed"
        )
    for seat in bots:
        assert seat.bot is not None
        _playable(seat.bot, settings.grid)


def _playable(level: str, grid: str) -> Level:
    """The level, when a bot of it can play the grid here (BotLevelError if not)."""
    checked = check_level(level, grid)
    if checked == "optimal":
        # Its solved table must be where this runs (BotLevelError level_unavailable if not).
        from yamb.bots.optimal import solver_for  # noqa: PLC0415 - numpy and a table

        solver_for(grid)
    return checked
