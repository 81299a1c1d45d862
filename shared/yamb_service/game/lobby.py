"""The table before and around play: create, join, edit, watch, list, and seating bots."""

import hashlib
from datetime import datetime

from yamb.errors import YambError
from yamb.i18n import Text
from yamb.protocol import (
    AddBot,
    CreateGame,
    DeleteGame,
    EditGame,
    GameFrame,
    GameListFrame,
    GameSummary,
    JoinGame,
    LeaveGame,
    ListGames,
    Rematch,
    RemoveBot,
    SeatRatingView,
    StartGame,
    UnwatchGame,
    WatchGame,
    clip,
)
from yamb.session import bot_seats, deals, lobby
from yamb.session.effects import Effects, GameActionError, require_creator, require_status
from yamb.session.model import GameSession
from yamb.session.views import game_view
from yamb.settings import GameSettings, validate_settings

from yamb_service.common.observability import MetricUnit, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.delivery import spectator_shows
from yamb_service.game.ports import GameExistsError, SeatTakenError
from yamb_service.game.seating import (
    freed_stale_seat,
    looks,
    premium_needed,
    require_account_for,
)
from yamb_service.game.writes import ack, answer_repeat, fingerprint, mutate
from yamb_service.social.fairplay import service as fair_checks

LISTED_GAMES = 50
# Spectators' connections live in the game item: a bound keeps it small.
MAX_SPECTATORS = 50


def game_id_for(player_id: str, request_id: str) -> str:
    """A game's id from its creator's request: a repeated create finds the same game."""
    return hashlib.sha256(f"{player_id}:{request_id}".encode()).hexdigest()[:20]


def list_games(ctx: GameContext, caller: Caller, action: ListGames) -> None:
    games = ctx.games.list_open(LISTED_GAMES)
    ctx.delivery.send(
        caller, GameListFrame(request_id=action.request_id, games=with_ratings(ctx, games))
    )


def with_ratings(ctx: GameContext, games: list[GameSummary]) -> list[GameSummary]:
    """Each waiting table's people with their rating in its pool (issue 32), all read in one
    batched request (a newcomer, never rated there, shows the starting rating)."""
    wanted = [
        (game.pool, player)
        for game in games
        if game.status == "waiting" and game.pool is not None
        for player in game.players
        if player not in game.bots
    ]
    if not wanted:
        return games
    from yamb.competition.ratings import Rating  # noqa: PLC0415 - the list's, not a cold start's

    found = ctx.ratings.seat_ratings(wanted)
    rated = []
    for game in games:
        if game.status != "waiting" or game.pool is None:
            rated.append(game)
            continue
        views = {}
        for player in game.players:
            if player in game.bots:
                continue
            rating = found.get((game.pool, player)) or Rating(player_id=player, pool=game.pool)
            views[player] = SeatRatingView(
                rating=rating.shown,
                deviation=rating.deviation,
                provisional=rating.provisional,
                games=rating.games,
            )
        rated.append(game.model_copy(update={"ratings": views}))
    return rated


def create(ctx: GameContext, caller: Caller, action: CreateGame, now: datetime) -> None:
    open_table(ctx, caller, action, validate_settings(action.settings), now)


def open_table(  # noqa: PLR0917 - a table's request, spelled out
    ctx: GameContext,
    caller: Caller,
    action: CreateGame | Rematch,
    settings: GameSettings,
    now: datetime,
    bots: tuple[str, ...] = (),
) -> GameSession | None:
    """A new table of the caller's with `settings` (and a bot of each of `bots`' levels
    seated), answered with its game; None when the request was a repeat (answered the same)."""
    require_account_for(ctx, caller.player_id, settings, now)
    game_id = game_id_for(caller.player_id, action.request_id)
    printed = fingerprint(action)
    session = lobby.create(
        game_id,
        caller.player_id,
        caller.connection_id,
        settings,
        now,
        server_seed=ctx.dice.seed(),
        nickname=caller.nickname,
        looks=looks(ctx, caller.player_id, now),
    )
    session.seats[0].fairplay = fair_checks.seat_state_for(ctx, caller.player_id, now)
    for level in bots:
        bot_seats.add_bot(session, caller.player_id, level)
    session.remember(caller.player_id, action.request_id, printed)
    for attempt in (1, 2):
        try:
            ctx.games.create(session, players={caller.player_id: "seat"}, now=now)
        except GameExistsError:
            # The same request again (or at the same time): the same answer, nothing else.
            existing = ctx.games.load(game_id).session
            answer_repeat(ctx, caller, action, existing, printed)
            return None
        except SeatTakenError:
            slow = settings.turn_type == "slow"
            if attempt == 2 or not freed_stale_seat(ctx, caller.player_id, now, slow=slow):
                raise
            continue
        break
    metrics.add_metric(name="GameCreated", unit=MetricUnit.Count, value=1)
    ctx.delivery.broadcast(session, [], now=ctx.now(), answer=(caller, action))
    return session


def join(ctx: GameContext, caller: Caller, action: JoinGame, now: datetime) -> None:
    player = caller.player_id
    shown = looks(ctx, player, now)
    judged = fair_checks.seat_state_for(ctx, player, now)

    def sit_down(session: GameSession) -> Effects:
        if premium_needed(ctx, player, session.settings, now):
            raise GameActionError(
                Text(
                    "this table's columns need premium (a free account plays presets 1 and 2, or "
                    "up to 3 columns of the types down, up and free)"
                ),
                code="premium_required",
            )
        effects = lobby.join(session, player, caller.connection_id, caller.nickname, shown)
        seat = session.seat_of(player)
        if seat is not None:
            session.seats[seat].fairplay = judged
        return effects

    mutate(ctx, caller, action, action.game_id, sit_down, now)


def edit(ctx: GameContext, caller: Caller, action: EditGame, now: datetime) -> None:
    player = caller.player_id
    # The settings are checked before the game is read, but a refusal of them is answered only
    # once the game is known to be a waiting table of this creator: edit_game on a running game
    # is `wrong_status` whatever settings it carries.
    settings: GameSettings | None = None
    refused: YambError | None = None
    try:
        settings = None if action.settings is None else validate_settings(action.settings)
        if settings is not None:
            require_account_for(ctx, player, settings, now)
    except YambError as error:
        refused = error

    def change(session: GameSession) -> None:
        require_status(session, "waiting")
        require_creator(session, player, Text("only the creator can edit the game"))
        if refused is not None:
            raise refused
        lobby.edit(session, player, action.settings, action.player_order)
        if settings is None:
            return
        bot_seats.check_settings_for_bots(session, settings)
        # Whoever sits already plays the new columns too (a refusal writes nothing).
        for seat in session.seats:
            if seat.bot is not None or seat.player_id == player:
                continue  # a bot plays any columns; the creator was checked
            if premium_needed(ctx, seat.player_id, settings, now):
                raise GameActionError(
                    Text(
                        "{player} plays with a free account: these columns need premium",
                        player=seat.nickname or seat.player_id,
                    ),
                    code="premium_required",
                )

    mutate(ctx, caller, action, action.game_id, change, now)


def leave(ctx: GameContext, caller: Caller, action: LeaveGame, now: datetime) -> None:
    player = caller.player_id
    mutate(ctx, caller, action, action.game_id, lambda s: lobby.leave_waiting(s, player, now), now)


def delete(ctx: GameContext, caller: Caller, action: DeleteGame, now: datetime) -> None:
    player = caller.player_id
    mutate(ctx, caller, action, action.game_id, lambda s: lobby.delete(s, player, now), now)


def start(ctx: GameContext, caller: Caller, action: StartGame, now: datetime) -> None:
    player, dice = caller.player_id, ctx.dice
    mutate(ctx, caller, action, action.game_id, lambda s: lobby.start(s, player, now, dice), now)


def seat_bots(ctx: GameContext, caller: Caller, action: AddBot | RemoveBot, now: datetime) -> None:
    player = caller.player_id
    if isinstance(action, AddBot):
        level = action.level
        mutate(
            ctx,
            caller,
            action,
            action.game_id,
            lambda s: _seated_bot(bot_seats.add_bot(s, player, level)),
            now,
        )
    else:
        bot_id = action.player_id
        mutate(
            ctx,
            caller,
            action,
            action.game_id,
            lambda s: bot_seats.remove_bot(s, player, bot_id),
            now,
        )


def _seated_bot(bot_id: str) -> Effects:
    """A bot sat down: the table changed, no player record did (a bot has none)."""
    del bot_id
    return Effects()


def watch(ctx: GameContext, caller: Caller, action: WatchGame, now: datetime) -> None:
    """The connection watches the game: an item of its own, the game not written (so a
    repeat, or a flood, changes nothing); the answer is the game."""
    loaded = ctx.games.load(action.game_id)
    session = loaded.session
    if session.seat_of(caller.player_id) is not None:
        if action.follow is not None and session.own_turns:
            raise GameActionError(
                Text("in this game each player sees only their own dice"), code="dice_hidden"
            )
        raise GameActionError(Text("players do not watch their own game"), code="already_seated")
    # A duplicate's game shows every other entrant's dice to come, running or ended.
    deals.require_shown(session, ctx.tournaments.over)
    follows = _followed(session, action.follow)
    # A bound on what each broadcast sends; racing watchers may pass it by a few.
    if caller.connection_id not in loaded.spectators and len(loaded.spectators) >= MAX_SPECTATORS:
        raise GameActionError(Text("this game has as many spectators as it takes"), code="full")
    if (
        caller.connection_id not in loaded.spectators
        or loaded.follows.get(caller.connection_id) != follows
    ):
        ctx.games.watch(action.game_id, caller.connection_id, now, follows)
        # A write between the load and the new spectator item broadcast without this
        # connection; read after the item exists, the answer carries that write.
        session = ctx.games.load(action.game_id).session
    view = game_view(session, spectator_shows(session, follows))
    frame = GameFrame(request_id=action.request_id, action=action.action, game=view)
    ctx.delivery.send(caller, frame)


def unwatch(ctx: GameContext, caller: Caller, action: UnwatchGame, now: datetime) -> None:
    """The connection stops watching: its spectator item goes, so no broadcast read after this
    reaches it (one read before may still deliver a frame: the client drops frames of a game it
    no longer shows). Answered with an ack of the game's version; not watching is no error."""
    loaded = ctx.games.load(action.game_id)
    if caller.connection_id in loaded.spectators:
        ctx.games.forget_spectators(action.game_id, [caller.connection_id])
    ack(ctx, caller, action, action.game_id, loaded.session.version)


def _followed(session: GameSession, follow: str | None) -> str | None:
    """The player a spectator asks to follow, checked: only where each player sees only their
    own dice is there a choice (turn by turn everyone sees the turn being played)."""
    if follow is None:
        return None
    if not session.own_turns:
        raise GameActionError(
            Text(
                "turn by turn every spectator sees the dice of the player in turn: there is no "
                "one to pick"
            ),
            code="wrong_game_type",
        )
    if session.seat_of(follow) is None:
        raise GameActionError(
            Text("{player} does not play in this game", player=clip(follow, 64)),
            code="unknown_player",
        )
    return follow
