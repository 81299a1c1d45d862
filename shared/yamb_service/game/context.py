"""What every part of the game service reads: its collaborators and its clock. The service
itself is the one implementation; each action module takes it as this Protocol, so the modules
import nothing from the service and none from each other's state."""

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from yamb.dice import DiceSource

from yamb_service.edge.notifier import Notifier
from yamb_service.game.delivery import Delivery
from yamb_service.game.ports import (
    GameRepository,
    PlayerRepository,
    ReturnReminders,
    SeatRatings,
    TournamentsOver,
    Wardrobes,
)
from yamb_service.game.writer import GameWriter
from yamb_service.push.ports import Pusher
from yamb_service.social.stores import SocialStores


class GameContext(Protocol):
    games: GameRepository
    players: PlayerRepository
    notifier: Notifier
    dice: DiceSource
    wardrobes: Wardrobes
    ratings: SeatRatings
    tournaments: TournamentsOver
    reminders: ReturnReminders
    pusher: Pusher
    writer: GameWriter
    delivery: Delivery
    now: Callable[[], datetime]
    away_grace: Callable[[], None]
    # The social actions' stores (docs/social.md); None where a service has none wired.
    social: SocialStores | None
