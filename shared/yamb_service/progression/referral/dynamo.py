"""Referrals on the game table (docs/progression.md), with pynamodb:

- a player's code: `PLAYER#<id>` / `REFCODE` (`summary`: the code), and the code's owner
  `REFCODE#<code>` / `REFCODE` (`player_id`), put together, each only if absent: a code is
  unique and a player has one;
- a referral: `PLAYER#<invitee>` / `REFERRED` (`player_id`: the inviter; `entry`: the
  `Referral` as JSON, on `version`; `played_weeks`, `paid_weeks`: string sets grown by ADD, so
  a repeat changes nothing), put only if absent (one referrer per invitee); once started it is
  listed on `gsi1` under `REFERRALS` by its start (`<ISO time>#<invitee>`) until settled;
- the inviter's side: `PLAYER#<inviter>` / `INVITEE#<invitee>` (`summary`: when taken), written
  with the referral, so an inviter lists their invitees with one query;
- the Recruiter badge's counter: `PLAYER#<inviter>` / `COUNT#recruiter` (`tally`), added to in
  the transaction that starts a referral (so once).
"""

import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from pynamodb.exceptions import DoesNotExist, PynamoDBException, TransactWriteError, UpdateError
from pynamodb.transactions import TransactWrite
from yamb.progression.referral import Referral

from yamb_service.common.dynamo import LOST_RACE_ERRORS, DynamoPart, ItemModel, busy_or, player_key
from yamb_service.common.ports import TransactionPart
from yamb_service.progression.referral.ports import CodeMade

_CODE, _REFERRED, _INVITEE = "REFCODE", "REFERRED", "INVITEE#"
RECRUITER_COUNT = "COUNT#recruiter"
STARTED_INDEX = "REFERRALS"
_BATCH = 100
_LOST_RACE_REASONS = ("ConditionalCheckFailed", "TransactionConflict")


def _moment(at: datetime) -> str:
    """A fixed-width UTC time, so that the index's keys sort as the moments do."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _lost_race(error: PynamoDBException) -> bool:
    if error.cause_response_code in LOST_RACE_ERRORS:
        return True
    reasons = getattr(error, "cancellation_reasons", None) or []
    return any(reason is not None and reason.code in _LOST_RACE_REASONS for reason in reasons)


def _entry(referral: Referral) -> str:
    return referral.model_dump_json(exclude={"played", "paid", "version"})


class DynamoReferralStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def _transaction(self) -> TransactWrite:
        return TransactWrite(connection=self._item._get_connection().connection)

    def _get(self, pk: str, sk: str, **options: Any) -> Any:
        try:
            return self._item.get(pk, sk, **options)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error

    # -------------------------------------------------------------- codes

    def code_of(self, player_id: str) -> str | None:
        found = self._get(player_key(player_id), _CODE, consistent_read=True)
        return None if found is None else found.summary

    def owner_of(self, code: str) -> str | None:
        found = self._get(f"{_CODE}#{code}", _CODE)
        return None if found is None else found.player_id

    def make_code(self, player_id: str, code: str) -> CodeMade:
        item = self._item
        try:
            with self._transaction() as write:
                write.save(
                    item(f"{_CODE}#{code}", _CODE, player_id=player_id),
                    condition=item.pk.does_not_exist(),
                )
                write.save(
                    item(player_key(player_id), _CODE, summary=code),
                    condition=item.pk.does_not_exist(),
                )
        except TransactWriteError as error:
            reasons = [None if r is None else r.code for r in error.cancellation_reasons or []]
            if len(reasons) == 2 and reasons[1] == "ConditionalCheckFailed":
                return "had_one"
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return "code_taken"
            if _lost_race(error):
                return "had_one"  # a transaction of the same player's: read what it made
            raise busy_or(error) from error
        return "made"

    # -------------------------------------------------------------- referrals

    def _referral(self, found: Any) -> Referral:
        data = json.loads(found.entry or "{}")
        return Referral.model_validate(
            {
                **data,
                "played": frozenset(found.played_weeks or ()),
                "paid": frozenset(found.paid_weeks or ()),
                "version": int(found.version or 0),
            }
        )

    def referral(self, invitee: str) -> Referral | None:
        found = self._get(player_key(invitee), _REFERRED, consistent_read=True)
        return None if found is None else self._referral(found)

    def referrals(self, invitees: Iterable[str]) -> dict[str, Referral]:
        keys = [(player_key(p), _REFERRED) for p in dict.fromkeys(invitees)]
        found: dict[str, Referral] = {}
        try:
            for start in range(0, len(keys), _BATCH):
                for item in self._item.batch_get(
                    keys[start : start + _BATCH], consistent_read=True
                ):
                    referral = self._referral(item)
                    found[referral.invitee] = referral
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def take(self, referral: Referral) -> bool:
        """The referral and the inviter's pointer to it; False when the invitee has one."""
        item = self._item
        try:
            with self._transaction() as write:
                write.save(
                    item(
                        player_key(referral.invitee),
                        _REFERRED,
                        player_id=referral.inviter,
                        entry=_entry(referral),
                        version=1,
                    ),
                    condition=item.pk.does_not_exist(),
                )
                write.save(
                    item(
                        player_key(referral.inviter),
                        f"{_INVITEE}{referral.invitee}",
                        summary=referral.taken_at.isoformat(),
                    )
                )
        except TransactWriteError as error:
            if _lost_race(error):
                return False
            raise busy_or(error) from error
        return True

    def invitees(self, inviter: str) -> list[str]:
        item = self._item
        try:
            return [
                found.sk.removeprefix(_INVITEE)
                for found in item.query(player_key(inviter), item.sk.startswith(_INVITEE))
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def start(self, before: Referral, started: Referral, week: str) -> bool:
        """The referral started (as read at `before.version`), listed, its first week played,
        and the inviter's recruits counted, at once; False when it moved (read it again)."""
        item = self._item
        assert started.started_at is not None
        try:
            with self._transaction() as write:
                write.update(
                    item(player_key(started.invitee), _REFERRED),
                    actions=[
                        item.entry.set(_entry(started)),
                        item.version.set(before.version + 1),
                        item.gsi1pk.set(STARTED_INDEX),
                        item.gsi1sk.set(f"{_moment(started.started_at)}#{started.invitee}"),
                        item.played_weeks.add({week}),
                    ],
                    condition=item.version == before.version,
                )
                write.update(
                    item(player_key(started.inviter), RECRUITER_COUNT),
                    actions=[item.tally.add(1)],
                )
        except TransactWriteError as error:
            if _lost_race(error):
                return False
            raise busy_or(error) from error
        return True

    def mark_week(self, invitee: str, week: str) -> None:
        """A week played (a set's ADD: once however often)."""
        item = self._item
        try:
            item(player_key(invitee), _REFERRED).update(
                actions=[item.played_weeks.add({week})], condition=item.pk.exists()
            )
        except PynamoDBException as error:
            raise busy_or(error) from error

    def choose(self, before: Referral, chosen: Referral) -> bool:
        """The scheme chosen, if the referral is still as read and nothing was paid under the
        default; False otherwise (read it again)."""
        item = self._item
        try:
            item(player_key(chosen.invitee), _REFERRED).update(
                actions=[item.entry.set(_entry(chosen)), item.version.set(before.version + 1)],
                condition=(item.version == before.version) & item.paid_weeks.does_not_exist(),
            )
        except UpdateError as error:
            if _lost_race(error):
                return False
            raise busy_or(error) from error
        except PynamoDBException as error:
            raise busy_or(error) from error
        return True

    def started_before(self, end: datetime) -> Iterator[str]:
        """The invitees of the listed (started, not settled) referrals started before `end`."""
        item = self._item
        try:
            for found in item.gsi1.query(STARTED_INDEX, item.gsi1sk < _moment(end)):
                yield found.pk.removeprefix("PLAYER#")
        except PynamoDBException as error:
            raise busy_or(error) from error

    def paid_part(self, invitee: str, week: str, version: int) -> TransactionPart:
        """The week's mark as paid, to be written in the transaction that pays it, on the
        referral still being as read (`version`): a scheme chosen meanwhile makes the payment
        fail, rather than a week paid at the default's amount after another was chosen."""
        item = self._item

        def add(write: TransactWrite) -> None:
            write.update(
                item(player_key(invitee), _REFERRED),
                actions=[item.paid_weeks.add({week})],
                condition=item.version == version,
            )

        return DynamoPart(add)

    def settle(self, invitee: str) -> None:
        """Off the index: nothing more is paid (the referral stays, for the inviter's view)."""
        item = self._item
        try:
            item(player_key(invitee), _REFERRED).update(
                actions=[item.gsi1pk.remove(), item.gsi1sk.remove()], condition=item.pk.exists()
            )
        except PynamoDBException as error:
            raise busy_or(error) from error
