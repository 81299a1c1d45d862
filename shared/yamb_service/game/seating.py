"""Who may sit where: premium columns, the cooldown after leaving, the slow-game limit, a seat
held elsewhere (freed when that game no longer holds it), and the cosmetics a player sits with."""

from datetime import datetime

from yamb.clubs.tag import TagView
from yamb.economy.looks import Looks
from yamb.errors import InvalidSettingsError
from yamb.i18n import Plural, Text
from yamb.session.effects import GameActionError
from yamb.session.slow import FREE_SLOW_GAMES, PREMIUM_SLOW_GAMES
from yamb.settings import GameSettings, Problem, premium_only

from yamb_service.clubs.tags import MainTags
from yamb_service.common.observability import logger
from yamb_service.game.context import GameContext
from yamb_service.game.ports import GameNotFoundError


def premium_needed(
    ctx: GameContext, player_id: str, settings: GameSettings, now: datetime
) -> list[Problem]:
    """What in the settings the player's account may not play (rules.md 5): premium-only
    columns and no premium now; the player's record is read only for such settings."""
    problems = premium_only(settings)
    if problems and not ctx.players.get(player_id).premium(now):
        return problems
    return []


def require_account_for(
    ctx: GameContext, player_id: str, settings: GameSettings, now: datetime
) -> None:
    problems = premium_needed(ctx, player_id, settings, now)
    if problems:
        raise InvalidSettingsError(problems)


def looks(ctx: GameContext, player_id: str, now: datetime) -> Looks | None:
    """The player's cosmetics and main club's tag as they sit down; a failed read seats them
    without (a skin or a tag never stops a game)."""
    try:
        worn = ctx.wardrobes.looks(player_id, now)
    except Exception:
        logger.exception("cosmetics not read")
        worn = None
    tag = _club_tag(ctx, player_id)
    if tag is None:
        return worn
    return (worn or Looks()).model_copy(update={"club": tag})


def _club_tag(ctx: GameContext, player_id: str) -> TagView | None:
    clubs = ctx.social.clubs if ctx.social is not None else None
    if clubs is None:
        return None
    try:
        return MainTags(clubs)([player_id]).get(player_id)
    except Exception:
        logger.exception("club tag not read")
        return None


def seat_refusal(
    ctx: GameContext, player_id: str, now: datetime, *, slow: bool = False
) -> GameActionError | None:
    """Why a player may not take a seat, or None when the seat they hold is stale."""
    record = ctx.players.get(player_id)
    if record.blocked_until is not None and record.blocked_until > now:
        return GameActionError(
            Text(
                "you left a game: joining is blocked until {blocked_until} UTC",
                blocked_until=format(record.blocked_until, "%H:%M"),
            ),
            code="cooldown",
        )
    if slow:
        allowed = PREMIUM_SLOW_GAMES if record.premium(now) else FREE_SLOW_GAMES
        if len(record.slow_games) >= allowed:
            return GameActionError(
                Plural(
                    "you already play {count} slow game: a player has {free} beside a regular "
                    "game, {premium} with premium",
                    "you already play {count} slow games: a player has {free} beside a regular "
                    "game, {premium} with premium",
                    len(record.slow_games),
                    free=FREE_SLOW_GAMES,
                    premium=PREMIUM_SLOW_GAMES,
                ),
                code="slow_games_limit",
            )
        return None
    if record.seated_in is None:
        return None
    try:
        holding = ctx.games.load(record.seated_in).session
    except GameNotFoundError:
        return None
    seat = holding.seat_of(player_id)
    if holding.in_play and seat is not None and not holding.seats[seat].left:
        return GameActionError(
            Text("you already play in game {game_id}", game_id=holding.game_id),
            code="already_in_game",
        )
    return None


def freed_stale_seat(
    ctx: GameContext, player_id: str, now: datetime, *, slow: bool = False
) -> bool:
    """A refused seat: raises the reason, or frees a seat held for a game that no longer
    holds it (then the write is tried again)."""
    refusal = seat_refusal(ctx, player_id, now, slow=slow)
    if refusal is not None:
        raise refusal
    if slow:
        return False  # the limit was met a moment ago, by a racing join: refused as taken
    record = ctx.players.get(player_id)
    return record.seated_in is not None and ctx.players.release_seat(player_id, record.seated_in)
