"""The one DynamoDB table every domain writes: its item model (every attribute of every kind of
item), its index, the keys the domains share, a failed request told apart as transient
(ServiceBusyError) or a lost race, and transaction parts (yamb_service.common.ports.
TransactionPart): a store's writes, prepared by its adapter and added by another adapter to the
transaction it commits."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    NumberAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
)
from pynamodb.exceptions import PynamoDBConnectionError, PynamoDBException
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite

from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.ports import TransactionPart

LOST_RACE_ERRORS = ("ConditionalCheckFailedException", "TransactionConflictException")
# What botocore's retries could not get through: the caller is told to send the action again.
_TRANSIENT_ERRORS = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        "TransactionInProgressException",
    }
)
_TRANSIENT_REASONS = frozenset({"ThrottlingError", "ProvisionedThroughputExceeded"})


def is_transient(error: PynamoDBException) -> bool:
    if isinstance(error, PynamoDBConnectionError) and error.cause_response_code is None:
        return True  # the network: a timeout, a connection refused
    if error.cause_response_code in _TRANSIENT_ERRORS:
        return True
    reasons = getattr(error, "cancellation_reasons", None) or []
    return any(reason is not None and reason.code in _TRANSIENT_REASONS for reason in reasons)


def busy_or(error: PynamoDBException) -> Exception:
    """What to raise for a failed request: ServiceBusyError when it was transient."""
    return ServiceBusyError() if is_transient(error) else error


def busy_when_transient[**P, R](method: Callable[P, R]) -> Callable[P, R]:
    """A request DynamoDB throttled or failed (after botocore's retries) as ServiceBusyError."""

    @wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except PynamoDBException as error:
            if is_transient(error):
                raise ServiceBusyError from error
            raise

    return call


class _Index1(GlobalSecondaryIndex["TableItem"]):  # type: ignore[no-untyped-call]
    """`gsi1`: the open games (`OPEN#…`), the accounts a daily job handles (`ACCOUNTS#…`), the
    rows of each leaderboard in order (`BOARD#…`)."""

    class Meta:
        index_name = "gsi1"
        projection = IncludeProjection(["summary"])

    gsi1pk = UnicodeAttribute(hash_key=True)
    gsi1sk = UnicodeAttribute(range_key=True)


class TableItem(Model):
    """Every item of the single table; which attributes are set depends on the entity."""

    class Meta:
        table_name = "unset"

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    gsi1pk = UnicodeAttribute(null=True)
    gsi1sk = UnicodeAttribute(null=True)
    summary = UnicodeAttribute(null=True)
    body = BinaryAttribute(null=True, legacy_encoding=False)
    version = NumberAttribute(null=True)
    expires_at = NumberAttribute(null=True)
    # The lane item, as the lane's task writes it.
    lane = NumberAttribute(null=True)
    token = UnicodeAttribute(null=True)
    # A player.
    connection_id = UnicodeAttribute(null=True)
    connected_at = NumberAttribute(null=True)  # when connection_id was bound (Unix seconds)
    # The last heartbeat (`ping`) heard on connection_id (Unix seconds); none: it never pinged.
    heard_at = NumberAttribute(null=True)
    # The player's handshakes in the window that began at handshake_window (Unix seconds).
    handshake_window = NumberAttribute(null=True)
    handshakes = NumberAttribute(null=True)
    game_id = UnicodeAttribute(null=True)
    seated_in = UnicodeAttribute(null=True)
    cooldown_day = UnicodeAttribute(null=True)
    disappearances = NumberAttribute(null=True)
    # The slow games the player sits at (beside one regular seat); premium (premium_until,
    # below) allows more of them.
    slow_games = UnicodeSetAttribute(null=True)
    # An account (yamb_service.accounts.dynamo): its profile as JSON, a nickname's owner, a
    # mailed link as JSON.
    profile = UnicodeAttribute(null=True)
    player_id = UnicodeAttribute(null=True)
    link = UnicodeAttribute(null=True)
    # A wallet (yamb_service.economy.wallet_dynamo): its balance and debt (version: its changes); a
    # ledger entry or an idempotency key's record, as JSON; premium's end on the player.
    balance = NumberAttribute(null=True)
    debt = NumberAttribute(null=True)
    entry = UnicodeAttribute(null=True)
    premium_until = NumberAttribute(null=True)
    # A wardrobe (yamb_service.economy.wardrobe_dynamo): the cosmetics owned and equipped, as JSON.
    wardrobe = UnicodeAttribute(null=True)
    # A spectator: whose own turn it follows.
    follows = UnicodeAttribute(null=True)
    watchers = NumberAttribute(null=True)  # on a game: spectators who came (LoadedGame.watchers)
    # On a game: seats whose present player came back on a new connection before their away
    # was written (JSON {player id: connection id}), relinked without a version (LoadedGame.links)
    seat_links = UnicodeAttribute(null=True)
    blocked_until = NumberAttribute(null=True)
    # Results (yamb_service.results.dynamo): how many board rows hold one score, a player's
    # statistics as JSON, a head-to-head's counts (the viewer's side).
    tally = NumberAttribute(null=True)
    stats = UnicodeAttribute(null=True)
    wins = NumberAttribute(null=True)
    losses = NumberAttribute(null=True)
    ties = NumberAttribute(null=True)
    # Weekly tasks (progression.tasks.dynamo): a distinct counter's members, the tasks claimed.
    members = UnicodeSetAttribute(null=True)
    # Referral (progression.referral.dynamo): the invitee's weeks played and weeks paid.
    played_weeks = UnicodeSetAttribute(null=True)
    paid_weeks = UnicodeSetAttribute(null=True)
    # Web Push (yamb_service.push.dynamo): a device's subscription as JSON.
    push = UnicodeAttribute(null=True)
    gsi1 = _Index1()


# The item class of one table, as item_model makes it (other stores of the table take it).
type ItemModel = type[TableItem]


def item_model(table_name: str, region: str, host: str | None = None) -> type[TableItem]:
    """The item class bound to one table (pynamodb binds tables per class)."""
    meta = type("Meta", (), {"table_name": table_name, "region": region, "host": host})
    return type("GameTableItem", (TableItem,), {"Meta": meta})


def botocore_session(item: type[TableItem]) -> Any:
    """The botocore session the model's connection uses (on this thread): the function's other
    clients come from it, so that the process loads botocore's data once."""
    return item._get_connection().connection.session


def player_key(player_id: str) -> str:
    """A player's partition: their seat record, account, wallet, statistics..."""
    return f"PLAYER#{player_id}"


@dataclass(frozen=True, slots=True)
class DynamoPart(TransactionPart):
    """Adds its writes (each with its own condition) to a pynamodb transaction."""

    add: Callable[[TransactWrite], None]


def add_parts(write: TransactWrite, parts: Iterable[TransactionPart]) -> None:
    """Each part's writes in `write`; a part of another storage is a wiring mistake."""
    for part in parts:
        if not isinstance(part, DynamoPart):
            raise TypeError(f"a DynamoDB transaction takes DynamoPart, not {type(part).__name__}")
        part.add(write)
