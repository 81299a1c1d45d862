"""What the game service needs from storage and timers, as small interfaces with domain types;
the adapters (yamb_service.game.dynamo, yamb_service.game.timers) implement them, tests pass
fakes."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from yamb.chat import ChatLog, ChatRate
from yamb.economy.looks import Looks
from yamb.errors import ErrorCode, YambError
from yamb.i18n import Text
from yamb.protocol import GameSummary
from yamb.session.cooldown import Cooldown
from yamb.session.effects import PlayerChange
from yamb.session.model import GameSession
from yamb.session.replays import ReplayHeader
from yamb.session.results import GameResult

if TYPE_CHECKING:  # a type only: the ratings' models load with the lobby's list
    from yamb.competition.ratings import Rating


class GameNotFoundError(YambError):
    code: ErrorCode = "game_not_found"


class StaleGameError(YambError):
    """Someone else changed the game first: reload and try again, or report the conflict."""

    code: ErrorCode = "conflict"


class HandshakeLimitError(YambError):
    """The player opened too many connections in the current window: this one is refused."""

    code: ErrorCode = "slow_down"

    def __init__(self, limit: int, window_seconds: int) -> None:
        super().__init__(
            Text(
                "at most {limit} connections in {window_seconds} s: try again later",
                limit=limit,
                window_seconds=window_seconds,
            )
        )
        self.limit = limit
        self.window_seconds = window_seconds


@dataclass(frozen=True, slots=True)
class HandshakeLimit:
    """At most `handshakes` connections a player opens in each window of `window_seconds`
    (windows are fixed: they begin at multiples of `window_seconds`)."""

    handshakes: int
    window_seconds: int

    def window(self, now: datetime) -> int:
        second = int(now.timestamp())
        return second - second % self.window_seconds


class GameExistsError(Exception):
    """A game with this id exists already (a repeated create)."""


class SeatTakenError(YambError):
    """A player may not take a seat: they hold one in another game, or a cooldown runs."""

    code: ErrorCode = "seat_taken"

    def __init__(self, player_id: str) -> None:
        super().__init__(Text("{player_id} may not take a seat now", player_id=player_id))
        self.player_id = player_id


@dataclass(slots=True)
class PlayerRecord:
    player_id: str
    connection_id: str | None = None
    # The game the player last sat at (what sync shows), and the one that holds their seat.
    game_id: str | None = None
    seated_in: str | None = None
    cooldown_day: str | None = None
    disappearances: int = 0
    blocked_until: datetime | None = None
    # The slow games the player sits at, beside `seated_in`; premium allows more of them.
    slow_games: frozenset[str] = frozenset()
    # Until when the player has premium (E3); None: never had it.
    premium_until: datetime | None = None
    # The last heartbeat heard on `connection_id`; None: that connection never pinged (a
    # client without a heartbeat is never judged silent).
    heard_at: datetime | None = None

    def premium(self, now: datetime) -> bool:
        return self.premium_until is not None and self.premium_until > now


@dataclass(frozen=True, slots=True)
class LaneToken:
    """The heartbeat token of a game's lane, as its task stored it when it armed."""

    lane: int
    token: str


@dataclass(slots=True)
class LoadedGame:
    session: GameSession
    lane_token: LaneToken | None = None
    # The connections watching the game (items of their own: watching never writes the game).
    spectators: list[str] = field(default_factory=list)
    # Whose own turn each spectator follows, where the game type hides dice (else absent).
    follows: dict[str, str] = field(default_factory=dict)
    # How many times a spectator came, as counted on the game item: a write conditioned on it
    # fails when one came after this load, so no broadcast misses a spectator it raced.
    watchers: int = 0
    # The seats relinked to a new connection since the last write, as stored (already applied
    # to `session`): a write conditioned on it fails when one is relinked after this load.
    links: str | None = None


@dataclass(frozen=True, slots=True)
class DiceChunk:
    """Turns of a game's dice record moved to an item of their own (number `index`), so that
    the game item, written at every action, stays small."""

    index: int
    turns: list[str]
    # The game's replay header, with the last chunk, written when the game ends: the record
    # then replays without the game item, which expires long before it.
    header: ReplayHeader | None = None


@dataclass(frozen=True, slots=True)
class ArchivedRecord:
    """A game's record as stored apart from its game item: its turns, oldest first, and the
    replay header once the game has ended."""

    turns: list[str]
    header: ReplayHeader | None


class GameRepository(Protocol):
    def load(self, game_id: str) -> LoadedGame: ...
    def create(
        self, session: GameSession, *, players: Mapping[str, PlayerChange], now: datetime
    ) -> None: ...
    def save(
        self,
        session: GameSession,
        *,
        players: Mapping[str, PlayerChange] | None = None,
        cooldowns: Mapping[str, Cooldown] | None = None,
        result: GameResult | None = None,
        ended: GameResult | None = None,
        dice_chunk: DiceChunk | None = None,
        watchers: int = 0,
        links: str | None = None,
        now: datetime,
    ) -> None: ...
    def relink(self, loaded: LoadedGame, player_id: str, connection_id: str) -> bool:
        """The player's seat takes `connection_id` without a new version (nothing the table
        sees changes), if the game is still as `loaded`; False when it changed meanwhile."""
        ...

    def archived_record(self, game_id: str) -> ArchivedRecord:
        """The turns of the game's record moved out of the game item, and its replay header."""
        ...

    def list_open(self, limit: int) -> list[GameSummary]: ...
    def watch(
        self, game_id: str, connection_id: str, now: datetime, follows: str | None = None
    ) -> None: ...
    def forget_spectators(self, game_id: str, connection_ids: list[str]) -> None: ...
    def chat_rate(self, connection_id: str) -> tuple[ChatRate, int]: ...
    def save_chat_rate(
        self, connection_id: str, rate: ChatRate, version: int, now: datetime
    ) -> bool: ...
    def chat_log(self, game_id: str) -> tuple[ChatLog, int]: ...
    def save_chat_log(self, game_id: str, log: ChatLog, version: int, now: datetime) -> bool: ...
    def result(self, game_id: str) -> GameResult | None: ...


class PlayerRepository(Protocol):
    def get(self, player_id: str) -> PlayerRecord: ...
    def bind_connection(
        self,
        player_id: str,
        connection_id: str,
        now: datetime,
        *,
        limit: HandshakeLimit | None = None,
    ) -> PlayerRecord:
        """Makes this the player's one live connection, bound at `now`; the record before.
        With `limit`, the handshake is counted in its window, and one past the limit is not
        bound: HandshakeLimitError."""
        ...

    def unbind_connection(
        self, player_id: str, connection_id: str, *, bound_before: datetime | None = None
    ) -> PlayerRecord | None:
        """Forgets the connection if it is still the player's (and, with `bound_before`, was
        bound before that moment); the record as it was, or None when it is not forgotten."""
        ...

    def heard(self, player_id: str, connection_id: str, now: datetime) -> PlayerRecord | None:
        """Notes a heartbeat on the connection if it is still the player's; the record as it
        now is, or None when the connection is not the player's any more."""
        ...

    def release_seat(self, player_id: str, game_id: str) -> bool: ...


class SeatRatings(Protocol):
    """The lobby's list of tables shows each waiting player's skill rating (issue 32)."""

    def seat_ratings(self, wanted: Iterable[tuple[str, str]]) -> Mapping[tuple[str, str], "Rating"]:
        """The ratings of these (pool key, player id), those rated, in one batched read."""


class NoSeatRatings:
    def seat_ratings(self, wanted: Iterable[tuple[str, str]]) -> Mapping[tuple[str, str], "Rating"]:
        return {}


class TournamentsOver(Protocol):
    """Whether a tournament is over (yamb.session.deals): a duplicate tournament's games show
    their dice (seed, record, replay, spectators) only then."""

    def over(self, tournament_id: str) -> bool:
        """True once it is finished, paid or cancelled; False while it is open or runs, and for
        a tournament that cannot be found."""
        ...


class NoTournaments:
    """No tournament store wired: no tournament is known to be over, so no deal is shown."""

    def over(self, tournament_id: str) -> bool:
        del tournament_id
        return False


class Wardrobes(Protocol):
    """Reads what a player shows at a table (E5's cosmetics), when they sit down only."""

    def looks(self, player_id: str, now: datetime) -> Looks | None:
        """What is equipped and valid at `now`; None: nothing."""
        ...


class NoWardrobes:
    """No cosmetics (a service without the economy): every player shows nothing."""

    def looks(self, player_id: str, now: datetime) -> Looks | None:
        return None


class ReturnReminders(Protocol):
    """Tells an away player that a game waits for them (A8), after the write that took it."""

    def remind(self, player_id: str, session: GameSession) -> bool: ...


class NoReminders:
    """Reminders not sent (the functions other than the clock, and tests of other things)."""

    def remind(self, player_id: str, session: GameSession) -> bool:
        return False


class Timers(Protocol):
    """Starts and stops the timers a TimerPlan asks for (yamb.session.timers)."""

    def start_lane(self, game_id: str, lane: int, seconds: int) -> None: ...
    def beat(self, token: str) -> bool:
        """False when the lane's task is gone (it already woke the game, or was stopped)."""
        ...

    def stop_lane(self, game_id: str, lane: int) -> None: ...
    def start_wake(self, game_id: str, second: int, wake_id: int) -> None: ...
    def stop_wake(self, game_id: str, second: int, wake_id: int) -> None: ...
