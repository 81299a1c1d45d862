"""Clubs on the game table (docs/data-model.md):

- a club: `CLUB#<id>` / `CLUB` (`summary`: the Club as JSON, `version`), listed in gsi1 under
  `CLUBS` by its search key (`<key>#<id>`, rules.search_key) while it is open;
- its name: `CLUBNAME#<key>` / `CLUBNAME` (`player_id`: the club), so two clubs never share a
  name whatever the case or the look-alike letters;
- a member: `CLUB#<id>` / `MEMBER#<player>` (`entry`: the Member as JSON, `tally`: donated);
- a request to join: `CLUB#<id>` / `REQUEST#<player>` (`entry`);
- a player's clubs in their order: `PLAYER#<id>` / `CLUBS` (`entry`, `version`), listed in gsi1
  under `CLUBS#SEVERAL` while there is more than one (the daily job settles those, C8);
- an invitation: `PLAYER#<id>` / `CLUBINVITE#<club>` (`entry`), read at the player's login;
- a club's chat pace (C6): `CLUB#<id>` / `CHATRATE#<window>` (`tally`: lines, `expires_at`);
- an announcement (C6): `CLUB#<id>` / `ANNOUNCE#<message id>` (`entry`: the line, `expires_at`);
- a club's score of a month (C7): `CLUB#<id>` / `SCORE#<month>` (`entry`: the ClubScore,
  `version`), ranked in gsi1 under `CLUBBOARD#<month>` by `<10^10 - 1 - score>#<reached at>#<id>`.

The treasury is the club's wallet (`PLAYER#club:<id>` / `WALLET`, yamb_service.economy).
"""

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pynamodb.exceptions import (
    DeleteError,
    DoesNotExist,
    PutError,
    PynamoDBException,
    TransactWriteError,
    UpdateError,
)
from pynamodb.expressions.condition import Condition
from pynamodb.transactions import TransactWrite
from yamb.clubs import rules
from yamb.clubs.board import ClubScore
from yamb.clubs.model import Club, ClubInvitation, ClubRequest, Member, PlayerClubs
from yamb.clubs.rules import search_key
from yamb.social.chats import ChatLine

from yamb_service.clubs.ports import StaleReadError
from yamb_service.common.dynamo import (
    LOST_RACE_ERRORS,
    DynamoPart,
    ItemModel,
    add_parts,
    busy_or,
    player_key,
)
from yamb_service.common.ports import TransactionPart

_CLUB, _NAME, _MEMBER, _REQUEST = "CLUB", "CLUBNAME", "MEMBER#", "REQUEST#"
_CLUBS, _INVITE = "CLUBS", "CLUBINVITE#"
LISTED = "CLUBS"
_SCORE, _BOARD = "SCORE#", "CLUBBOARD#"
_SEVERAL = "CLUBS#SEVERAL"
_RATE, _ANNOUNCE = "CHATRATE#", "ANNOUNCE#"
_SCORE_CEILING = 10**10 - 1  # ten digits: best first in gsi1's ascending order
_LOST_RACE_REASONS = ("ConditionalCheckFailed", "TransactionConflict")


def club_key(club_id: str) -> str:
    return f"CLUB#{club_id}"


def _name_key(key: str) -> str:
    return f"CLUBNAME#{key}"


class DynamoClubStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    # -------------------------------------------------------------- reads

    def _get(self, pk: str, sk: str, *, consistent: bool = True) -> object | None:
        try:
            return self._item.get(pk, sk, consistent_read=consistent)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error

    def club(self, club_id: str, *, consistent: bool = False) -> Club | None:
        stored = self._get(club_key(club_id), _CLUB, consistent=consistent)
        return None if stored is None else _club(stored)

    def clubs(self, club_ids: Sequence[str]) -> dict[str, Club]:
        keys = [(club_key(club_id), _CLUB) for club_id in dict.fromkeys(club_ids)]
        if not keys:
            return {}
        try:
            found = [_club(item) for item in self._item.batch_get(keys)]
        except PynamoDBException as error:
            raise busy_or(error) from error
        return {club.club_id: club for club in found}

    def page(self, *, prefix: str, after: str, limit: int) -> list[tuple[str, Club]]:
        # One condition on a sort key is all a query takes: past the page before (the keys in
        # order, the prefix's end is where a key stops holding it), else the prefix's keys.
        condition: Condition | None = None
        if after:
            condition = self._item.gsi1sk > after
        elif prefix:
            condition = self._item.gsi1sk.startswith(prefix)
        found: list[tuple[str, Club]] = []
        try:
            for item in self._item.gsi1.query(LISTED, condition, limit=limit):
                key = item.gsi1sk or ""
                if not key.startswith(prefix):
                    break
                found.append((key, _club(item)))
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def name_owner(self, key: str) -> str | None:
        stored = self._get(_name_key(key), _NAME)
        return None if stored is None else getattr(stored, "player_id", None)

    def members(self, club_id: str) -> list[Member]:
        return [_member(item) for item in self._query(club_key(club_id), _MEMBER)]

    def member(self, club_id: str, player_id: str) -> Member | None:
        stored = self._get(club_key(club_id), f"{_MEMBER}{player_id}")
        return None if stored is None else _member(stored)

    def player_clubs(self, player_id: str) -> PlayerClubs:
        stored = self._get(player_key(player_id), _CLUBS)
        if stored is None:
            return PlayerClubs()
        return PlayerClubs.model_validate_json(getattr(stored, "entry", None) or "{}")

    def main_clubs(self, player_ids: Sequence[str]) -> dict[str, str]:
        """Each of these players' main club (the first live one of their list), if any."""
        found: dict[str, str] = {}
        for stored in self._of_players(player_ids, _CLUBS, ["pk", "entry"]):
            main = PlayerClubs.model_validate_json(stored.entry or "{}").main
            if main is not None:
                found[stored.pk.removeprefix("PLAYER#")] = main.club_id
        return found

    def players_in_several(self) -> list[str]:
        try:
            return [item.gsi1sk or "" for item in self._item.gsi1.query(_SEVERAL)]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def requests(self, club_id: str) -> list[ClubRequest]:
        found = [
            ClubRequest.model_validate_json(item.entry or "{}")
            for item in self._query(club_key(club_id), _REQUEST)
        ]
        return sorted(found, key=lambda request: request.at)

    def request(self, club_id: str, player_id: str) -> ClubRequest | None:
        stored = self._get(club_key(club_id), f"{_REQUEST}{player_id}")
        if stored is None:
            return None
        return ClubRequest.model_validate_json(getattr(stored, "entry", None) or "{}")

    def invitations(self, player_id: str) -> list[ClubInvitation]:
        found = [
            ClubInvitation.model_validate_json(item.entry or "{}")
            for item in self._query(player_key(player_id), _INVITE)
        ]
        return sorted(found, key=lambda invitation: invitation.at)

    def invitation(self, player_id: str, club_id: str) -> ClubInvitation | None:
        stored = self._get(player_key(player_id), f"{_INVITE}{club_id}")
        if stored is None:
            return None
        return ClubInvitation.model_validate_json(getattr(stored, "entry", None) or "{}")

    def _query(self, pk: str, prefix: str) -> list[Any]:
        try:
            return list(self._item.query(pk, self._item.sk.startswith(prefix)))
        except PynamoDBException as error:
            raise busy_or(error) from error

    # -------------------------------------------------------------- chat (C6)

    def count_line(self, club_id: str, now: datetime) -> bool:
        """One line more in the club's current window, if it holds fewer than the pace allows
        (False: the club is writing too fast)."""
        item = self._item
        window = int(now.timestamp()) // rules.CLUB_CHAT_WINDOW_SECONDS
        expires = (window + 2) * rules.CLUB_CHAT_WINDOW_SECONDS + 3600
        stored = item(club_key(club_id), f"{_RATE}{window}")
        try:
            stored.update(
                actions=[item.tally.add(1), item.expires_at.set(expires)],
                condition=item.tally.does_not_exist() | (item.tally < rules.CLUB_LINES_PER_WINDOW),
            )
        except UpdateError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def announce(self, club_id: str, line: ChatLine) -> None:
        expires = int((line.sent_at + timedelta(days=rules.ANNOUNCEMENT_DAYS)).timestamp())
        stored = self._item(
            club_key(club_id),
            f"{_ANNOUNCE}{line.id}",
            entry=line.model_dump_json(),
            expires_at=expires,
        )
        try:
            stored.save(add_version_condition=False)
        except PutError as error:
            raise busy_or(error) from error

    def announcements(self, club_id: str, limit: int) -> list[ChatLine]:
        """The newest first."""
        try:
            found = self._item.query(
                club_key(club_id),
                self._item.sk.startswith(_ANNOUNCE),
                scan_index_forward=False,
                limit=limit,
            )
            return [ChatLine.model_validate_json(item.entry or "{}") for item in found]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def connections(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The live connection of each of these players who has one (their records)."""
        return {
            record.pk.removeprefix("PLAYER#"): record.connection_id
            for record in self._of_players(player_ids, "PLAYER", ["pk", "connection_id"])
            if record.connection_id
        }

    def _of_players(self, player_ids: Sequence[str], sk: str, attributes: list[str]) -> list[Any]:
        """One item of each of these players' partitions, read in batches of 100."""
        keys = [(player_key(player), sk) for player in dict.fromkeys(player_ids)]
        found: list[Any] = []
        try:
            for start in range(0, len(keys), 100):
                found += self._item.batch_get(
                    keys[start : start + 100], attributes_to_get=attributes
                )
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    # -------------------------------------------------------------- scores (C7)

    def score(self, club_id: str, period: str) -> ClubScore | None:
        stored = self._get(club_key(club_id), f"{_SCORE}{period}")
        if stored is None:
            return None
        score = ClubScore.model_validate_json(getattr(stored, "entry", None) or "{}")
        return score.model_copy(update={"version": int(getattr(stored, "version", 0) or 0)})

    def board(self, period: str, limit: int) -> list[ClubScore]:
        try:
            found = list(self._item.gsi1.query(f"{_BOARD}{period}", limit=limit))
        except PynamoDBException as error:
            raise busy_or(error) from error
        return [ClubScore.model_validate_json(item.summary or "{}") for item in found]

    def write_score(self, before: ClubScore | None, after: ClubScore) -> None:
        """The score on the version read (StaleReadError when another was written since)."""
        item = self._item
        stored = item(
            club_key(after.club_id),
            f"{_SCORE}{after.period}",
            entry=after.model_dump_json(exclude={"version"}),
            summary=after.model_dump_json(exclude={"version"}),
            version=after.version,
            gsi1pk=f"{_BOARD}{after.period}",
            # Equal scores: the one reached first shows first, as on the players' boards.
            gsi1sk=f"{_SCORE_CEILING - after.score:010d}#{after.at.isoformat()}#{after.club_id}",
        )
        unchanged = item.sk.does_not_exist() if before is None else item.version == before.version
        try:
            stored.save(condition=unchanged, add_version_condition=False)
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                raise StaleReadError() from error
            raise busy_or(error) from error

    # -------------------------------------------------------------- parts

    def club_part(self, before: Club | None, after: Club) -> TransactionPart:
        item = self._item
        listed = not after.closed and not after.hidden
        stored = item(
            club_key(after.club_id),
            _CLUB,
            summary=after.model_dump_json(),
            version=after.version,
            gsi1pk=LISTED if listed else None,
            gsi1sk=f"{search_key(after.name)}#{after.club_id}" if listed else None,
        )
        unchanged = item.pk.does_not_exist() if before is None else item.version == before.version
        return DynamoPart(lambda write: write.save(stored, condition=unchanged))

    def name_part(self, key: str, club_id: str) -> TransactionPart:
        stored = self._item(_name_key(key), _NAME, player_id=club_id)
        free = self._item.pk.does_not_exist()
        return DynamoPart(lambda write: write.save(stored, condition=free))

    def release_name_part(self, key: str) -> TransactionPart:
        stored = self._item(_name_key(key), _NAME)
        return DynamoPart(lambda write: write.delete(stored))

    def member_part(self, club_id: str, member: Member, *, new: bool) -> TransactionPart:
        item = self._item
        entry = member.model_dump_json(exclude={"donated"})
        key = (club_key(club_id), f"{_MEMBER}{member.player_id}")
        if new:
            added = item(*key, entry=entry, tally=0)
            return DynamoPart(lambda write: write.save(added, condition=item.sk.does_not_exist()))
        # A role changed: the donations counted meanwhile stay (donation_part adds to them).
        return DynamoPart(
            lambda write: write.update(
                item(*key), actions=[item.entry.set(entry)], condition=item.sk.exists()
            )
        )

    def remove_member_part(self, club_id: str, player_id: str) -> TransactionPart:
        stored = self._item(club_key(club_id), f"{_MEMBER}{player_id}")
        present = self._item.sk.exists()
        return DynamoPart(lambda write: write.delete(stored, condition=present))

    def donation_part(self, club_id: str, player_id: str, amount: int) -> TransactionPart:
        item = self._item
        stored = item(club_key(club_id), f"{_MEMBER}{player_id}")
        return DynamoPart(
            lambda write: write.update(
                stored, actions=[item.tally.add(amount)], condition=item.sk.exists()
            )
        )

    def player_clubs_part(
        self, player_id: str, before: PlayerClubs, after: PlayerClubs
    ) -> TransactionPart:
        item = self._item
        several = len(after.clubs) > 1
        stored = item(
            player_key(player_id),
            _CLUBS,
            entry=after.model_dump_json(),
            version=after.version,
            gsi1pk=_SEVERAL if several else None,
            gsi1sk=player_id if several else None,
        )
        unchanged = (
            item.sk.does_not_exist() if before.version == 0 else item.version == before.version
        )
        return DynamoPart(lambda write: write.save(stored, condition=unchanged))

    def request_part(self, request: ClubRequest) -> TransactionPart:
        stored = self._item(
            club_key(request.club_id),
            f"{_REQUEST}{request.player_id}",
            entry=request.model_dump_json(),
        )
        absent = self._item.sk.does_not_exist()
        return DynamoPart(lambda write: write.save(stored, condition=absent))

    def remove_request_part(self, club_id: str, player_id: str) -> TransactionPart:
        stored = self._item(club_key(club_id), f"{_REQUEST}{player_id}")
        present = self._item.sk.exists()
        return DynamoPart(lambda write: write.delete(stored, condition=present))

    def invitation_part(self, invitation: ClubInvitation) -> TransactionPart:
        stored = self._item(
            player_key(invitation.player_id),
            f"{_INVITE}{invitation.club_id}",
            entry=invitation.model_dump_json(),
        )
        absent = self._item.sk.does_not_exist()
        return DynamoPart(lambda write: write.save(stored, condition=absent))

    def remove_invitation_part(self, player_id: str, club_id: str) -> TransactionPart:
        stored = self._item(player_key(player_id), f"{_INVITE}{club_id}")
        return DynamoPart(lambda write: write.delete(stored))

    # -------------------------------------------------------------- writes

    def commit(self, parts: Sequence[TransactionPart]) -> None:
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                add_parts(write, parts)
        except TransactWriteError as error:
            reasons = getattr(error, "cancellation_reasons", None) or []
            if error.cause_response_code in LOST_RACE_ERRORS or any(
                reason is not None and reason.code in _LOST_RACE_REASONS for reason in reasons
            ):
                raise StaleReadError() from error
            raise busy_or(error) from error

    def drop_requests(self, club_id: str) -> int:
        dropped = 0
        for request in self.requests(club_id):
            stored = self._item(club_key(club_id), f"{_REQUEST}{request.player_id}")
            try:
                stored.delete(add_version_condition=False)
            except DeleteError as error:
                raise busy_or(error) from error
            dropped += 1
        return dropped


def _club(item: object) -> Club:
    return Club.model_validate_json(getattr(item, "summary", None) or "{}")


def _member(item: object) -> Member:
    donated = int(getattr(item, "tally", None) or 0)
    return Member.model_validate_json(getattr(item, "entry", None) or "{}").model_copy(
        update={"donated": donated}
    )
