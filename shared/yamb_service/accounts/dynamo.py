"""The accounts' items on the game table (docs/data-model.md), with pynamodb; nothing outside
this module sees an item, a key or a pynamodb error.

- a profile: `PLAYER#<id>` / `PROFILE` (the profile as JSON, its version; an active one is
  listed on `gsi1` in the players list, `PLAYERS#<shard>` by its nickname's search key, with
  its row as `summary`; an unverified or deleting one under `ACCOUNTS#<status>` by when it
  became so);
- a nickname's reservation: `NICK#<nickname key>` / `NICK` (the player id); the key is the UTS 39
  skeleton (`yamb.accounts.nicknames.nickname_key`); an account reserved before it may still be
  under its legacy key (NFKC and casefold) until `migrate_reservation` moves it;
- a mailed link: `LINK#<player id>` / its kind (one live link a player and kind; expires with
  the link);
- the mails sent to an address in a window: `MAILED#<sha-256 of the address>` / the window's
  length and start (a counter, removed by TTL after the window).
"""

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pynamodb.exceptions import (
    DeleteError,
    DoesNotExist,
    PutError,
    PynamoDBException,
    TransactWriteError,
    UpdateError,
)
from pynamodb.transactions import TransactWrite
from yamb.accounts.emails import email_key
from yamb.accounts.links import Link, LinkKind
from yamb.accounts.mail import MailBound
from yamb.accounts.nicknames import legacy_nickname_key, nickname_key
from yamb.accounts.profile import AccountStatus, Profile
from yamb.social import players

from yamb_service.accounts.ports import NicknameTakenError, StaleProfileError
from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, add_parts, busy_or, player_key
from yamb_service.common.ports import TransactionPart

if TYPE_CHECKING:  # the results are read through `results`: the session's models are not needed
    from yamb.session.results import GameResult

_PROFILE, _NICK = "PROFILE", "NICK"
# The statuses a daily job looks for (yamb_service.accounts.service.AccountService.daily).
_LISTED = (AccountStatus.UNVERIFIED, AccountStatus.DELETING)
# A used or expired link is removed by TTL a day after its end (the check is on expires_at).
_LINK_TTL_SLACK = timedelta(days=1)
_LOST_RACE_REASONS = ("ConditionalCheckFailed", "TransactionConflict")


def load_profile(item: ItemModel, player_id: str) -> Profile | None:
    """The stored profile (a consistent read: a sign-out counts at once)."""
    try:
        stored = item.get(player_key(player_id), _PROFILE, consistent_read=True)
    except DoesNotExist:
        return None
    except PynamoDBException as error:
        raise busy_or(error) from error
    assert stored.profile is not None
    return Profile.model_validate_json(stored.profile)


def nickname_owner(item: ItemModel, nickname: str) -> str | None:
    """The player id holding the nickname (a consistent read), or None: under its skeleton's
    key, else under its legacy key (a reservation made before skeletons, not yet moved)."""
    keys = dict.fromkeys((_nick_key(nickname), _legacy_nick_key(nickname)))
    for key in keys:
        try:
            stored = item.get(key, _NICK, consistent_read=True)
        except DoesNotExist:
            continue
        except PynamoDBException as error:
            raise busy_or(error) from error
        return stored.player_id
    return None


def _nick_key(nickname: str) -> str:
    return f"NICK#{nickname_key(nickname)}"


def _legacy_nick_key(nickname: str) -> str:
    return f"NICK#{legacy_nickname_key(nickname)}"


def _link_key(player_id: str) -> str:
    return f"LINK#{player_id}"


def _mailed_key(address: str) -> str:
    """The address is not kept: its digest counts as well."""
    return f"MAILED#{hashlib.sha256(email_key(address).encode()).hexdigest()}"


def _listing(profile: Profile) -> tuple[str, str] | None:
    """Where the profile is listed on `gsi1`, and its sort key there: an active account in the
    players list (S1, `PLAYERS#<shard>` by its nickname's key: yamb.social.players); an account
    the daily job has to handle under `ACCOUNTS#<status>` by when it got there (a purge begun is
    finished with the deletions); None when neither."""
    if profile.status == AccountStatus.ACTIVE and not profile.hidden:
        key = players.search_key(profile.nickname)
        return f"PLAYERS#{players.shard(key)}", f"{key}#{profile.player_id}"
    if profile.status == AccountStatus.UNVERIFIED:
        return f"ACCOUNTS#{AccountStatus.UNVERIFIED}", _moment(profile.created_at)
    if (
        profile.status in (AccountStatus.DELETING, AccountStatus.PURGING)
        and profile.deletion_requested_at is not None
    ):
        return f"ACCOUNTS#{AccountStatus.DELETING}", _moment(profile.deletion_requested_at)
    return None


def _moment(moment: datetime) -> str:
    """UTC, so that the text compares as the moment does."""
    return moment.astimezone(UTC).isoformat()


def _listed_player(profile: Profile) -> str:
    return players.ListedPlayer(
        player_id=profile.player_id,
        nickname=profile.nickname,
        country=profile.preferences.country,
    ).model_dump_json(by_alias=True)


def _lost_race(error: PynamoDBException) -> bool:
    """A condition that failed, or a transaction another one held: the caller's to handle."""
    if error.cause_response_code in LOST_RACE_ERRORS:
        return True
    reasons = getattr(error, "cancellation_reasons", None) or []
    return any(reason is not None and reason.code in _LOST_RACE_REASONS for reason in reasons)


class DynamoAccountStore:
    def __init__(self, item: ItemModel, results: Callable[[str], "GameResult | None"]) -> None:
        self._item = item
        # A game's result, as the game repository reads it.
        self._results = results

    # -------------------------------------------------------------- profiles

    def _profile_item(self, profile: Profile, version: int) -> Any:
        listing = _listing(profile)
        stored = profile.model_copy(update={"version": version})
        return self._item(
            player_key(profile.player_id),
            _PROFILE,
            version=version,
            profile=stored.model_dump_json(),
            gsi1pk=None if listing is None else listing[0],
            gsi1sk=None if listing is None else listing[1],
            summary=_listed_player(profile)
            if listing and listing[0].startswith("PLAYERS#")
            else None,
        )

    def get(self, player_id: str) -> Profile | None:
        return load_profile(self._item, player_id)

    def create(self, profile: Profile) -> None:
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                write.save(self._profile_item(profile, 1), condition=self._item.pk.does_not_exist())
                write.save(
                    self._item(_nick_key(profile.nickname), _NICK, player_id=profile.player_id),
                    condition=self._item.pk.does_not_exist(),
                )
        except TransactWriteError as error:
            if _lost_race(error):
                raise NicknameTakenError(profile.nickname) from None
            raise busy_or(error) from error

    def save(self, profile: Profile) -> Profile:
        item = self._profile_item(profile, profile.version + 1)
        try:
            item.save(condition=self._item.version == profile.version)
        except PutError as error:
            if _lost_race(error):
                raise StaleProfileError from None
            raise busy_or(error) from error
        return profile.model_copy(update={"version": profile.version + 1})

    def rename(
        self,
        profile: Profile,
        old_nickname: str,
        also: Sequence[TransactionPart] = (),
    ) -> Profile:
        """The profile under its new nickname, the reservations moved, and `also` (the price's
        wallet writes) in the same transaction."""
        held = self._held_key(old_nickname, profile.player_id)
        same_key = held == _nick_key(profile.nickname)
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                add_parts(write, also)
                write.save(
                    self._profile_item(profile, profile.version + 1),
                    condition=self._item.version == profile.version,
                )
                if not same_key:
                    write.save(
                        self._item(_nick_key(profile.nickname), _NICK, player_id=profile.player_id),
                        condition=self._item.pk.does_not_exist(),
                    )
                    write.delete(
                        self._item(held, _NICK),
                        condition=self._item.player_id == profile.player_id,
                    )
        except TransactWriteError as error:
            if not _lost_race(error):
                raise busy_or(error) from error
            if not same_key and self.nickname_owner(profile.nickname) not in (
                None,
                profile.player_id,
            ):
                raise NicknameTakenError(profile.nickname) from None
            raise StaleProfileError from None
        return profile.model_copy(update={"version": profile.version + 1})

    def purge(self, profile: Profile, *, release: str) -> None:
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                write.save(
                    self._profile_item(profile, profile.version + 1),
                    condition=self._item.version == profile.version,
                )
                write.delete(
                    self._item(self._held_key(release, profile.player_id), _NICK),
                    condition=self._item.player_id == profile.player_id,
                )
        except TransactWriteError as error:
            if _lost_race(error):
                raise StaleProfileError from None
            raise busy_or(error) from error

    def delete(self, profile: Profile) -> None:
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                write.delete(
                    self._item(player_key(profile.player_id), _PROFILE),
                    condition=self._item.version == profile.version,
                )
                write.delete(
                    self._item(self._held_key(profile.nickname, profile.player_id), _NICK),
                    condition=self._item.player_id == profile.player_id,
                )
        except TransactWriteError as error:
            if _lost_race(error):
                raise StaleProfileError from None
            raise busy_or(error) from error

    def profiles(self, player_ids: Iterable[str]) -> dict[str, Profile]:
        """Several profiles in one request a hundred (eventually consistent: for showing)."""
        keys = [(player_key(p), _PROFILE) for p in dict.fromkeys(player_ids)]
        found: dict[str, Profile] = {}
        try:
            for start in range(0, len(keys), 100):
                for item in self._item.batch_get(keys[start : start + 100]):
                    profile = Profile.model_validate_json(item.profile or "{}")
                    found[profile.player_id] = profile
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def nickname_owner(self, nickname: str) -> str | None:
        return nickname_owner(self._item, nickname)

    def _owner(self, key: str) -> str | None:
        try:
            item = self._item.get(key, _NICK, consistent_read=True)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        return item.player_id

    def _held_key(self, nickname: str, player_id: str) -> str:
        """The key of the player's reservation of `nickname`: its skeleton's, or the legacy one
        for an account reserved before skeletons and not migrated yet. The release that follows
        is conditional on the owner, so a reservation moved in between fails it (a lost race)."""
        key = _nick_key(nickname)
        legacy = _legacy_nick_key(nickname)
        if legacy == key or self._owner(key) == player_id:
            return key
        return legacy if self._owner(legacy) == player_id else key

    def migrate_reservation(self, nickname: str, player_id: str) -> str:
        """Moves a reservation made before skeletons to its skeleton's key, in one transaction
        (scripts/migrate-nicknames). "moved", "current" (nothing to do), or "clash" when the
        skeleton is another player's (two look-alike names registered before skeletons: the
        legacy reservation stays, and the clash is for an operator to settle)."""
        key = _nick_key(nickname)
        legacy = _legacy_nick_key(nickname)
        if legacy == key or self._owner(key) == player_id:
            return "current"
        if self._owner(legacy) != player_id:
            return "current"
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                write.save(
                    self._item(key, _NICK, player_id=player_id),
                    condition=self._item.pk.does_not_exist(),
                )
                write.delete(self._item(legacy, _NICK), condition=self._item.player_id == player_id)
        except TransactWriteError as error:
            if _lost_race(error):
                return "clash" if self._owner(key) not in (None, player_id) else "current"
            raise busy_or(error) from error
        return "moved"

    def due(self, status: AccountStatus, before: datetime) -> Iterator[str]:
        assert status in _LISTED, f"{status} accounts are not listed"
        before_text = _moment(before)
        for item in self._item.gsi1.query(f"ACCOUNTS#{status}", self._item.gsi1sk < before_text):
            yield item.pk.removeprefix("PLAYER#")

    # -------------------------------------------------------------- links

    def _link_item(self, link: Link) -> Any:
        expires = link.expires_at + _LINK_TTL_SLACK
        return self._item(
            _link_key(link.player_id),
            str(link.kind),
            link=link.model_dump_json(),
            expires_at=int(expires.timestamp()),
        )

    def put_link(self, link: Link) -> None:
        try:
            self._link_item(link).save()
        except PynamoDBException as error:
            raise busy_or(error) from error

    def restore_link(self, link: Link) -> None:
        try:
            self._link_item(link).save(condition=self._item.pk.does_not_exist())
        except PutError as error:
            if not _lost_race(error):
                raise busy_or(error) from error
            # a newer link of the kind was made meanwhile: it is the live one

    def peek_link(self, player_id: str, kind: LinkKind) -> Link | None:
        try:
            item = self._item.get(_link_key(player_id), str(kind), consistent_read=True)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        assert item.link is not None
        return Link.model_validate_json(item.link)

    def take_link(self, link: Link) -> bool:
        try:
            self._item(_link_key(link.player_id), str(link.kind)).delete(
                condition=self._item.link == link.model_dump_json()
            )
        except DeleteError as error:
            if _lost_race(error):
                return False
            raise busy_or(error) from error
        return True

    # -------------------------------------------------------------- mail bound

    def count_mail(self, address: str, bound: MailBound, now: datetime) -> bool:
        start = bound.window_start(now)
        seconds = int(bound.window.total_seconds())
        item = self._item(_mailed_key(address), f"{seconds}#{start.isoformat()}")
        try:
            item.update(
                actions=[
                    self._item.tally.add(1),
                    self._item.expires_at.set(int(start.timestamp()) + seconds),
                ],
                condition=self._item.tally.does_not_exist() | (self._item.tally < bound.limit),
            )
        except UpdateError as error:
            if _lost_race(error):
                return False
            raise busy_or(error) from error
        return True

    # -------------------------------------------------------------- results

    def played_in(self, game_id: str, player_id: str) -> bool:
        result = self._results(game_id)
        return result is not None and any(
            player.player_id == player_id for player in result.players
        )


def migrate_nicknames(item: ItemModel) -> dict[str, list[str]]:
    """Every profile's reservation moved to its skeleton's key (scripts/migrate-nicknames, once
    after the deployment that brought skeletons): a scan of the profiles, then one transaction
    for each reservation still under its legacy key. The player ids by outcome ("moved",
    "current", "clash")."""
    store = DynamoAccountStore(item, lambda _game_id: None)
    outcomes: dict[str, list[str]] = {"moved": [], "current": [], "clash": []}
    for stored in item.scan(item.sk == _PROFILE):
        profile = Profile.model_validate_json(stored.profile or "{}")
        if profile.status in (AccountStatus.DELETED, AccountStatus.PURGING):
            continue  # its nickname is an id, released with the purge
        outcomes[store.migrate_reservation(profile.nickname, profile.player_id)].append(
            profile.player_id
        )
    return outcomes
