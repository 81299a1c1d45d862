"""Results on the game table (docs/data-model.md, "Results"): leaderboard rows and their score
counts, players' statistics, head-to-heads and meetings, favorites, prize awards.

A board `BOARD#<board>` holds one row item per entrant (`E#<entrant>`, the `Entry` as JSON in
`summary`, on `version`), listed in `gsi1` under the board with `gsi1sk` = the inverted score,
the moment it was reached and the entrant: a board's top is one index query. Beside the rows,
one count item per score (`N#<score>`, `tally`): a row's place is one plus the rows above it,
read from the counts above its score (at most one item per distinct score, never the rows).
A row changes in one transaction with the counts it moves, and only while its period is open
(`PERIOD#<id>` / `CLOSED` absent): a payout closes a period before it reads it.
"""

import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any, cast

from pynamodb.exceptions import (
    DoesNotExist,
    PutError,
    PynamoDBException,
    TransactWriteError,
)
from pynamodb.transactions import TransactWrite
from yamb.results.boards import Board, Entry
from yamb.results.head_to_head import Meeting, Side
from yamb.results.periods import Period
from yamb.results.played import PlayedGame
from yamb.results.prizes import Award
from yamb.results.stats import PlayerStats

from yamb_service.common.dynamo import DynamoPart, ItemModel, busy_or, player_key
from yamb_service.common.observability import logger
from yamb_service.common.ports import TransactionPart
from yamb_service.results.ports import Counted, HeadToHeadCount, Written

_ROW, _COUNT, _STATS, _COUNTED, _CLOSED = "E#", "N#", "STATS", "COUNTED", "CLOSED"
_H2H, _MEETING, _FAVORITE, _PRIZE, _PAIR = "H2H#", "MEET#", "FAV#", "PRIZE#", "PAIR#"
# Not "PLAYED#": the badges count the days a player played as PLAYED#<day>.
_PLAYED = "PAST#"
_AWARDS = "AWARDS#"
# Far above any score a board can hold (9 columns x 5 results is under 20,000).
_SCORE_CEILING = 9_999_999
# The marker that a game was counted outlives the stream's 24 hours of redelivery by far.
COUNTED_TTL = timedelta(days=30)
_BATCH = 100


def _board_key(board: Board) -> str:
    return f"BOARD#{board.key}"


def _count_sk(score: int) -> str:
    """A score's count, its key in score order (`place` reads a range of them). A total may be
    below zero (the max-min row): a negative one is "-" and its distance above -ceiling, which
    sorts before every other and in its order."""
    if score < 0:
        return f"{_COUNT}-{_SCORE_CEILING + score:07d}"
    return f"{_COUNT}{score:07d}"


def _order(entry: Entry) -> str:
    """A row's place in `gsi1`, best first: the inverted score (ties: earliest first). Below
    zero the inversion would grow a digit and sort first, so a negative score follows every
    other, the nearest to zero first."""
    if entry.score < 0:
        inverted = f"{_SCORE_CEILING:07d}~{-entry.score:07d}"
    else:
        inverted = f"{_SCORE_CEILING - entry.score:07d}"
    return f"{inverted}#{entry.since.isoformat()}#{entry.entrant}"


def _reasons(error: TransactWriteError) -> list[str | None]:
    return [None if r is None else r.code for r in (error.cancellation_reasons or [])]


_FAILED, _CONFLICT = "ConditionalCheckFailed", "TransactionConflict"


class DynamoResultsStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    def _transaction(self) -> TransactWrite:
        return TransactWrite(connection=self._item._get_connection().connection)

    # -------------------------------------------------------------- boards

    def rows(self, board: Board, entrants: Iterable[str]) -> dict[str, Entry]:
        """The rows of these entrants on a board (absent: not on it), consistently read."""
        found = self.rows_at([(board, e) for e in dict.fromkeys(entrants)])
        return {entrant: entry for (_, entrant), entry in found.items()}

    def rows_at(self, places: Iterable[tuple[Board, str]]) -> dict[tuple[str, str], Entry]:
        """Rows of several boards at once, by (board key, entrant): one request a hundred."""
        keys = list(dict.fromkeys((_board_key(b), f"{_ROW}{e}") for b, e in places))
        found: dict[tuple[str, str], Entry] = {}
        try:
            for start in range(0, len(keys), _BATCH):
                for item in self._item.batch_get(
                    keys[start : start + _BATCH], consistent_read=True
                ):
                    entry = Entry.model_validate_json(item.summary or "{}")
                    board_key = item.pk.removeprefix("BOARD#")
                    found[board_key, entry.entrant] = entry.model_copy(
                        update={"version": int(item.version or 0)}
                    )
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def forget_score(self, board: Board, score: int) -> None:
        """Drops a score's count once no row holds it (best effort: a count a row took again
        in between stays), so a place reads the scores held now, not every score held once."""
        item = self._item
        try:
            item(_board_key(board), _count_sk(score)).delete(condition=item.tally == 0)
        except PynamoDBException as error:
            # Taken again, held by a transaction, throttled: a count of 0 costs a place one
            # item more, never a wrong one.
            logger.info("score count kept", board=board.key, score=score, error=str(error))

    def write_row(self, board: Board, before: Entry | None, after: Entry) -> Written:
        """The row `after` on the board, if it still is `before` and the period is open; its
        score's count moved in the same transaction."""
        item = self._item
        key = _board_key(board)
        version = 0 if before is None else before.version
        try:
            with self._transaction() as write:
                write.save(
                    item(
                        key,
                        f"{_ROW}{after.entrant}",
                        summary=after.model_dump_json(by_alias=True),
                        version=version + 1,
                        gsi1pk=key,
                        gsi1sk=_order(after),
                    ),
                    condition=item.pk.does_not_exist()
                    if before is None
                    else item.version == version,
                )
                if before is None or before.score != after.score:
                    write.update(item(key, _count_sk(after.score)), actions=[item.tally.add(1)])
                    if before is not None:
                        write.update(
                            item(key, _count_sk(before.score)), actions=[item.tally.add(-1)]
                        )
                if board.period.end is not None:
                    write.condition_check(
                        item, f"PERIOD#{board.period.id}", _CLOSED, item.pk.does_not_exist()
                    )
        except TransactWriteError as error:
            reasons = _reasons(error)
            # pynamodb sends condition checks first, then puts, then updates.
            if board.period.end is not None and reasons and reasons[0] == _FAILED:
                return "closed"
            if _FAILED in reasons or _CONFLICT in reasons:
                return "moved"
            raise busy_or(error) from error
        return "written"

    def top(self, board: Board, limit: int) -> list[Entry]:
        """The board's first rows, best first: one query of the index."""
        try:
            return [
                Entry.model_validate_json(item.summary or "{}")
                for item in self._item.gsi1.query(_board_key(board), limit=limit)
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def place(self, board: Board, score: int) -> int:
        """One plus the rows with a higher score: the counts above it, never the rows."""
        item = self._item
        above = 0
        try:
            for count in item.query(
                _board_key(board),
                item.sk.between(_count_sk(score + 1), _count_sk(_SCORE_CEILING)),
                attributes_to_get=["tally"],
            ):
                above += int(count.tally or 0)
        except PynamoDBException as error:
            raise busy_or(error) from error
        return above + 1

    def close(self, period: Period, now: datetime) -> bool:
        """No row of the period changes after this (a late result is left out of it). True
        when this call closed it, False when it was closed before."""
        item = self._item
        try:
            item(f"PERIOD#{period.id}", _CLOSED, summary=now.isoformat()).save(
                condition=item.pk.does_not_exist()
            )
        except PutError as error:
            if error.cause_response_code == "ConditionalCheckFailedException":
                return False
            raise busy_or(error) from error
        except PynamoDBException as error:
            raise busy_or(error) from error
        return True

    def pair_row(self, player_id: str, board: Board) -> str | None:
        """The entrant of the player's best pair on a pairs board (its own place's row)."""
        try:
            item = self._item.get(player_key(player_id), f"{_PAIR}{board.key}")
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        return item.player_id

    def point_to_pair(self, player_id: str, board: Board, entry: Entry) -> None:
        """Keeps the player's best pair of a board: set unless a better one is kept."""
        item = self._item
        try:
            item(
                player_key(player_id),
                f"{_PAIR}{board.key}",
                player_id=entry.entrant,
                tally=entry.score,
            ).save(
                condition=item.tally.does_not_exist()
                | (item.tally < entry.score)
                # the same pair again (a repeat restores it), never back to a lower score
                | ((item.player_id == entry.entrant) & (item.tally <= entry.score))
            )
        except PutError as error:
            if error.cause_response_code != "ConditionalCheckFailedException":
                raise busy_or(error) from error
        except PynamoDBException as error:
            raise busy_or(error) from error

    # -------------------------------------------------------------- statistics

    def statistics(self, player_ids: Iterable[str]) -> dict[str, PlayerStats]:
        keys = [(player_key(p), _STATS) for p in dict.fromkeys(player_ids)]
        found = {}
        try:
            for item in self._item.batch_get(keys, consistent_read=True):
                stats = PlayerStats.model_validate_json(item.stats or "{}")
                found[item.pk.removeprefix("PLAYER#")] = stats
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def count_game(
        self,
        game_id: str,
        now: datetime,
        before: dict[str, PlayerStats],
        after: dict[str, PlayerStats],
        sides: list[Side],
        *,
        played: dict[str, PlayedGame],
    ) -> Counted:
        """A game's statistics and head-to-heads, in one transaction with the game's `COUNTED`
        marker: each player's statistics on the version read."""
        item = self._item
        try:
            with self._transaction() as write:
                write.save(
                    item(
                        f"GAME#{game_id}", _COUNTED, expires_at=int((now + COUNTED_TTL).timestamp())
                    ),
                    condition=item.pk.does_not_exist(),
                )
                for player_id, stats in after.items():
                    old = before.get(player_id)
                    write.save(
                        item(
                            player_key(player_id),
                            _STATS,
                            stats=stats.model_dump_json(by_alias=True),
                            version=stats.version,
                        ),
                        condition=item.pk.does_not_exist()
                        if old is None
                        else item.version == old.version,
                    )
                for side in sides:
                    self._add_meeting(write, side)
                for player_id, entry in played.items():
                    write.save(
                        item(
                            player_key(player_id),
                            f"{_PLAYED}{entry.at.isoformat()}#{entry.game_id}",
                            summary=entry.model_dump_json(by_alias=True),
                        )
                    )
        except TransactWriteError as error:
            reasons = _reasons(error)
            if reasons and reasons[0] == _FAILED:  # the marker: the first put
                return "counted_before"
            if _FAILED in reasons or _CONFLICT in reasons:
                return "moved"
            raise busy_or(error) from error
        return "counted"

    def pause(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.02 * (attempt + 1)))

    def _add_meeting(self, write: TransactWrite, side: Side) -> None:
        item = self._item
        meeting = side.meeting
        verdict = {"win": item.wins, "loss": item.losses, "tie": item.ties}[meeting.verdict]
        write.update(
            item(player_key(side.player_id), f"{_H2H}{side.opponent}"),
            actions=[verdict.add(1)],
        )
        write.save(
            item(
                player_key(side.player_id),
                f"{_MEETING}{side.opponent}#{meeting.at.isoformat()}#{meeting.game_id}",
                summary=meeting.model_dump_json(by_alias=True),
            )
        )

    def played(self, player_id: str, limit: int, before: str | None = None) -> list[PlayedGame]:
        """The player's past games, newest first; `before` pages on from an entry's key."""
        return self._newest_first(player_id, _PLAYED, PlayedGame, limit, before)

    def head_to_head(self, player_id: str, opponent: str) -> HeadToHeadCount:
        try:
            item = self._item.get(player_key(player_id), f"{_H2H}{opponent}")
        except DoesNotExist:
            return HeadToHeadCount(0, 0, 0)
        except PynamoDBException as error:
            raise busy_or(error) from error
        return HeadToHeadCount(int(item.wins or 0), int(item.losses or 0), int(item.ties or 0))

    def meetings(
        self, player_id: str, opponent: str, limit: int, before: str | None = None
    ) -> list[Meeting]:
        """The meetings of two players, newest first; `before` pages on from a meeting's key."""
        return self._newest_first(player_id, f"{_MEETING}{opponent}#", Meeting, limit, before)

    def _newest_first[Summary: Meeting | PlayedGame](
        self, player_id: str, prefix: str, model: type[Summary], limit: int, before: str | None
    ) -> list[Summary]:
        """The player's items under `prefix` (keyed `<prefix><at>#<game id>`), newest first,
        from the one after `before` (a page's last key) when given."""
        item = self._item
        condition = (
            item.sk.startswith(prefix)
            if before is None
            else item.sk.between(prefix, f"{prefix}{before}")
        )
        try:
            entries: list[Summary] = [
                cast("Summary", model.model_validate_json(row.summary or "{}"))
                for row in item.query(
                    player_key(player_id), condition, scan_index_forward=False, limit=limit + 1
                )
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error
        if before is not None:  # between() includes the page's last entry
            entries = [e for e in entries if f"{e.at.isoformat()}#{e.game_id}" != before]
        return entries[:limit]

    # -------------------------------------------------------------- favorites

    def favorites(self, player_id: str) -> list[str]:
        item = self._item
        try:
            return [
                found.sk.removeprefix(_FAVORITE)
                for found in item.query(player_key(player_id), item.sk.startswith(_FAVORITE))
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def set_favorite(self, player_id: str, favorite: str, on: bool) -> None:
        found = self._item(player_key(player_id), f"{_FAVORITE}{favorite}")
        try:
            if on:
                found.save()
            else:
                found.delete()
        except PynamoDBException as error:
            raise busy_or(error) from error

    # -------------------------------------------------------------- prizes

    def awards(self, player_id: str) -> list[dict[str, Any]]:
        item = self._item
        try:
            return [
                json.loads(found.entry or "{}")
                for found in item.query(player_key(player_id), item.sk.startswith(_PRIZE))
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def standing(self, board: Board) -> list[Award] | None:
        """The awards a payout worked out for a board of a closed period (None: not yet)."""
        try:
            found = self._item.get(
                f"PERIOD#{board.period.id}", f"{_AWARDS}{board.key}", consistent_read=True
            )
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        return [
            Award(a["entrant"], tuple(a["players"]), a["place"], a["tokens"], a["score"])
            for a in json.loads(found.entry or "[]")
        ]

    def keep_standing(self, board: Board, awards: list[Award]) -> list[Award]:
        """The awards of a board kept once: a run that finds some kept pays those, so every
        run pays the same amounts (a rerun's index may differ from the first run's)."""
        item = self._item
        kept = json.dumps([asdict(a) for a in awards])
        try:
            item(f"PERIOD#{board.period.id}", f"{_AWARDS}{board.key}", entry=kept).save(
                condition=item.pk.does_not_exist()
            )
        except PutError as error:
            if error.cause_response_code != "ConditionalCheckFailedException":
                raise busy_or(error) from error
            stored = self.standing(board)
            assert stored is not None
            return stored
        except PynamoDBException as error:
            raise busy_or(error) from error
        return awards

    def award_part(
        self, player_id: str, board: Board, entrant: str, award: dict[str, Any]
    ) -> TransactionPart:
        """The award's record, to be written in the transaction that pays it."""
        item = self._item

        def add(write: TransactWrite) -> None:
            write.save(
                item(
                    player_key(player_id),
                    f"{_PRIZE}{board.period.id}#{board.key}#{entrant}",
                    entry=json.dumps(award),
                )
            )

        return DynamoPart(add)
