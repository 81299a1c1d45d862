"""The game service on the game table with recording fakes (testkit.fakes) and a clock that
stands still until moved."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from yamb.dice import SeededDice
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.competition.dynamo import DynamoRatingStore
from yamb_service.game.deal_dynamo import DynamoTournamentsOver
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.game.service import GameService
from yamb_service.game.throttle import ConnectionThrottle
from yamb_service.social.blocks.dynamo import DynamoBlocks
from yamb_service.social.chats.dynamo import DynamoChatStore
from yamb_service.social.fairplay.dynamo import DynamoFairplayStore
from yamb_service.social.invitations.dynamo import DynamoInvitationStore
from yamb_service.social.stores import SocialStores

from testkit.fakes import RecordingNotifier, SimulatedTimers

START = datetime(2025, 6, 2, 10, 0, tzinfo=UTC)


@dataclass
class Clock:
    """The service's `now`: stands still until advanced."""

    moment: datetime = START

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> datetime:
        self.moment += timedelta(**delta)
        return self.moment

    def set(self, moment: datetime) -> None:
        self.moment = moment


def make_service(  # noqa: PLR0917 - the service's collaborators
    games: DynamoGameRepository,
    players: DynamoPlayerRepository,
    notifier: RecordingNotifier,
    timers: SimulatedTimers,
    clock: Clock,
    seed: int = 7,
) -> GameService:
    return GameService(
        games=games,
        players=players,
        notifier=notifier,
        timers=timers,
        dice=SeededDice(seed),
        now=clock,
        # Tests act much faster than people: the limit has tests of its own.
        throttle=ConnectionThrottle(burst=1_000_000, per_second=1_000_000),
        # The harness's time is simulated and nobody comes back while a $disconnect waits: a
        # closed connection's seat is away at once, as if its grace had passed (the grace has
        # tests of its own, over the real functions and sockets).
        away_grace=lambda: None,
        ratings=DynamoRatingStore(games._item),
        tournaments=DynamoTournamentsOver(games._item),
        social=SocialStores(
            chats=DynamoChatStore(games._item),
            invitations=DynamoInvitationStore(games._item),
            blocks=DynamoBlocks(games._item),
            profiles=DynamoAccountStore(games._item, games.result),
            # A batch of the general chat is delivered at once, and no second is waited out.
            wait=lambda _seconds: None,
            fairplay=DynamoFairplayStore(games._item),
            clubs=DynamoClubStore(games._item),
        ),
    )
