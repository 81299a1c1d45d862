"""Builds the account service from the function's settings, once per execution environment, on
first use (as yamb_service.game.wiring does for the game service): no client is made at import."""

from collections.abc import Callable
from datetime import datetime
from functools import cache, partial
from typing import Any, Literal

from botocore.config import Config
from yamb.i18n import DEFAULT_LANGUAGE, Plural, Text

from yamb_service.accounts.cognito import CognitoIdentity
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.accounts.mailer import SesMailer
from yamb_service.accounts.service import AccountService
from yamb_service.common import clock
from yamb_service.common.config import account_settings
from yamb_service.common.dynamo import botocore_session, item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.result_dynamo import game_result
from yamb_service.progression.wiring import pioneer_enrolment, referrals_on
from yamb_service.push.dynamo import DynamoSubscriptions
from yamb_service.push.service import PushDevices

_CONFIG = Config(retries={"mode": "standard", "max_attempts": 4}, connect_timeout=2, read_timeout=5)


def _now() -> Any:
    return clock.now()


class _LazyConnections:
    """The player's live connection, closed on a sign-out or deletion: the notifier and the
    game repository behind it (the WebSocket protocol, the game session) are imported and built
    on the first close, not when the function starts (most calls never close one)."""

    def __init__(self, item: Any, make_client: Callable[[], Any]) -> None:
        self._item = item
        self._make_client = make_client
        self._built: Any = None

    def close(
        self,
        player_id: str,
        *,
        reason: Text | Plural | str,
        code: Literal["signed_out", "signed_in_elsewhere"] = "signed_out",
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        if self._built is None:
            from yamb_service.edge.notifier import ApiGatewayNotifier  # noqa: PLC0415 (the protocol)
            from yamb_service.game.dynamo import DynamoPlayerRepository  # noqa: PLC0415
            from yamb_service.game.live_connections import PlayerConnections  # noqa: PLC0415

            self._built = PlayerConnections(
                DynamoPlayerRepository(self._item), ApiGatewayNotifier(self._make_client)
            )
        self._built.close(player_id, reason=reason, code=code, language=language)


class _LazySeatNames:
    """The purge's renaming of the player's seats (yamb_service.game.seat_names): the game's
    repositories (the game session) are imported and built on the first purge, not when the
    function starts."""

    def __init__(self, item: Any) -> None:
        self._item = item
        self._built: Any = None

    def rename_seats(
        self, player_id: str, nickname: str, now: datetime, *, only_in_play: bool = False
    ) -> int:
        if self._built is None:
            from yamb_service.game.dynamo import (  # noqa: PLC0415 (the game session)
                DynamoGameRepository,
                DynamoPlayerRepository,
            )
            from yamb_service.game.seat_names import SeatNames  # noqa: PLC0415

            self._built = SeatNames(
                DynamoGameRepository(self._item), DynamoPlayerRepository(self._item)
            )
        return int(self._built.rename_seats(player_id, nickname, now, only_in_play=only_in_play))


class _LazyTournamentEntries:
    """The purge's renaming of the player's tournament entries
    (yamb_service.competition.entry_names_dynamo), imported and built on the first purge."""

    def __init__(self, item: Any) -> None:
        self._item = item
        self._built: Any = None

    def rename_entries(self, player_id: str, nickname: str) -> int:
        if self._built is None:
            from yamb_service.competition.entry_names_dynamo import (  # noqa: PLC0415
                DynamoTournamentEntryNames,
            )

            self._built = DynamoTournamentEntryNames(self._item)
        return int(self._built.rename_entries(player_id, nickname))


@cache
def account_service(
    user_pool_id: str | None = None, client_id: str | None = None
) -> AccountService:
    """The service; a trigger names the pool and app client of its event (the others read
    theirs from the settings)."""
    settings = account_settings()
    pool = user_pool_id or settings.user_pool_id
    app_client = client_id or settings.user_pool_client_id
    assert pool is not None and app_client is not None, "USER_POOL_ID and its client are unset"
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    session = botocore_session(item)

    def client(service: str, endpoint_url: str | None) -> Callable[[], Any]:
        return lambda: session.create_client(
            service, region_name=settings.aws_region, endpoint_url=endpoint_url, config=_CONFIG
        )

    referrals = referrals_on(item, _now)
    return AccountService(
        store=DynamoAccountStore(item, partial(game_result, item)),
        identity=CognitoIdentity(
            client("cognito-idp", settings.aws_endpoint_url),
            user_pool_id=pool,
            client_id=app_client,
        ),
        mailer=SesMailer(
            client("ses", settings.aws_endpoint_url),
            sender=settings.mail_from,
        ),
        connections=_LazyConnections(
            item, client("apigatewaymanagementapi", settings.connections_endpoint)
        ),
        wallets=DynamoWalletStore(item),
        now=_now,
        on_verified=(pioneer_enrolment(item), referrals.on_verified),
        referrals=referrals,
        games=_LazySeatNames(item),
        devices=PushDevices(DynamoSubscriptions(item)),
        tournaments=_LazyTournamentEntries(item),
    )


@cache
def push_devices() -> PushDevices:
    """A device's Web Push subscription kept or removed (yamb_service.push): the push domain's
    store and rules, without its sender."""
    settings = account_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    return PushDevices(DynamoSubscriptions(item))
