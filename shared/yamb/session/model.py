"""A live game as stored between actions: settings, seats, the engine's state, clocks."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from yamb.game import Game
from yamb.layout import layout_for
from yamb.settings import GameSettings
from yamb.snapshot import dump_game, load_game

type Status = Literal["waiting", "running", "finished", "cancelled"]
type Outcome = Literal["completed", "resigned", "abandoned", "cancelled", "declined_finish"]

# A client repeats only its last few requests; each kept one costs write units on every action.
RECENT_REQUESTS_KEPT = 16


class Seat(BaseModel):
    player_id: str
    # The player's live connection, kept here so that a broadcast needs no other read.
    connection_id: str | None = None
    present: bool = True
    left: bool = False
    # Absence: counted per seat so that a return timer knows which absence it guards.
    absences: int = 0
    absent_since: datetime | None = None
    return_deadline: datetime | None = None


class TurnClock(BaseModel):
    """The clock of the seat in turn: running until `deadline`, or frozen with `frozen_ms` left.
    `version` changes whenever the clock is (re)started, frozen or resumed: a deadline timer
    carries it and does nothing once it has changed."""

    version: int = 0
    deadline: datetime | None = None
    frozen_ms: int | None = None
    # The turn in which the clock was already resumed with the 5-second floor.
    floor_used_in_turn: int | None = None


class RecordedRequest(BaseModel):
    action: str
    version: int


class GameSession(BaseModel):
    model_config = ConfigDict(validate_assignment=False)

    game_id: str
    version: int = 0
    created_at: datetime
    creator: str
    settings: GameSettings
    status: Status = "waiting"
    seats: list[Seat]
    # Turns started so far (1 for the first); timers carry it.
    turn: int = 0
    engine: dict[str, Any] | None = None
    clock: TurnClock = Field(default_factory=TurnClock)
    pending: tuple[int, int] | None = None
    # The last player left was offered to finish their sheet and has not answered yet.
    finish_offer: str | None = None
    solo_finish: bool = False
    spectators: list[str] = Field(default_factory=list)
    winners: list[str] = Field(default_factory=list)
    outcome: Outcome | None = None
    ended_at: datetime | None = None
    recent_requests: dict[str, RecordedRequest] = Field(default_factory=dict)

    # -- seats -----------------------------------------------------------------------------

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player_id == player_id:
                return index
        return None

    @property
    def player_ids(self) -> list[str]:
        return [seat.player_id for seat in self.seats]

    def remaining_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if not seat.left]

    # -- the engine ------------------------------------------------------------------------

    def new_game(self) -> Game:
        settings = self.settings
        layout = layout_for(settings.grid, settings.column_ids, settings.dice)
        return Game(layout, self.player_ids)

    def game(self) -> Game:
        if self.engine is None:
            raise ValueError("the game has not started")
        return load_game(self.engine)

    def store(self, game: Game) -> None:
        self.engine = dump_game(game)

    # -- idempotency -----------------------------------------------------------------------

    def remember(self, player_id: str, request_id: str, action: str) -> None:
        """Keeps the request with the version the coming write stores: a repeat of it gets the
        same answer."""
        self.recent_requests[f"{player_id}:{request_id}"] = RecordedRequest(
            action=action, version=self.version + 1
        )
        while len(self.recent_requests) > RECENT_REQUESTS_KEPT:
            del self.recent_requests[next(iter(self.recent_requests))]

    def recalled(self, player_id: str, request_id: str) -> RecordedRequest | None:
        return self.recent_requests.get(f"{player_id}:{request_id}")
