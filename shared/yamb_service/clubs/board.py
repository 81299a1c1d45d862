"""The club score and the monthly club board (C7). A club's score for a month is worked out
again from its members and their rows on the month's main board whenever one of them may have
changed it: after a member's ranked result (the results function, after the boards), when a
member leaves or is removed, and when a membership turns dormant or is restored (C8). Worked
out whole rather than by adding deltas: a repeated or reordered trigger cannot make it drift,
and a leaver's points go at once. The write is conditional on the version read, so of two
workings-out at once the later reading wins."""

from collections.abc import Callable
from datetime import datetime

from yamb.clubs.board import ClubScore, club_score, main_board
from yamb.clubs.errors import ClubError
from yamb.clubs.messages import ClubBoardRow, ClubBoardView
from yamb.i18n import Text
from yamb.results.boards import contributions, enters_boards
from yamb.results.errors import ResultsError
from yamb.results.periods import Period, month_of, parse
from yamb.session.results import GameResult

from yamb_service.clubs.ports import BoardRows, ClubStore, StaleReadError
from yamb_service.clubs.service import club_row
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import MetricUnit, logger, metrics

ATTEMPTS = 8
BOARD_SIZE = 50


class ClubBoardService:
    def __init__(self, *, store: ClubStore, rows: BoardRows, now: Callable[[], datetime]) -> None:
        self.store = store
        self.rows = rows
        self.now = now

    def recompute(self, club_id: str, period: Period | None = None) -> ClubScore:
        """The club's score of the month (the current one by default), worked out and kept."""
        month = period or month_of(self.now())
        for _ in range(ATTEMPTS):
            before = self.store.score(club_id, month.id)
            members = self.store.members(club_id)
            rows = self.rows.rows(main_board(month), [m.player_id for m in members])
            after = club_score(
                club_id,
                month,
                members,
                rows,
                at=self.now(),
                version=(before.version if before else 0) + 1,
            )
            if before is not None and (before.score, before.counted) == (
                after.score,
                after.counted,
            ):
                return before
            try:
                self.store.write_score(before, after)
            except StaleReadError:
                continue
            return after
        raise ServiceBusyError()

    def after_result(self, result: GameResult) -> int:
        """Each club of each player whose month's main-board row the result may have changed:
        its score worked out again; how many clubs."""
        if not enters_boards(result):
            return 0
        month = month_of(result.ended_at)
        players = {
            player
            for contribution in contributions(result)
            if contribution.format == "individual"
            for player in contribution.players
        }
        clubs = {
            membership.club_id
            for player in players
            for membership in self.store.player_clubs(player).clubs
            if not membership.dormant
        }
        for club_id in sorted(clubs):
            self.recompute(club_id, month)
        if clubs:
            metrics.add_metric(name="ClubScoresWorkedOut", unit=MetricUnit.Count, value=len(clubs))
            logger.info("club scores worked out", game_id=result.game_id, clubs=len(clubs))
        return len(clubs)

    def board(self, period: str = "month") -> ClubBoardView:
        try:
            month: Period | None = parse(period, self.now())
        except ResultsError:
            month = None
        if month is None or month.kind != "month":
            raise ClubError(
                Text("a club board is a month's: month, or one like 2026-12"),
                code="bad_request",
                field="period",
            )
        scores = self.store.board(month.id, BOARD_SIZE)
        clubs = self.store.clubs([s.club_id for s in scores])
        rows: list[ClubBoardRow] = []
        for score in scores:
            club = clubs.get(score.club_id)
            if club is None or club.closed or club.hidden:
                continue
            place = rows[-1].place if rows and rows[-1].score == score.score else len(rows) + 1
            rows.append(
                ClubBoardRow(
                    place=place, club=club_row(club), score=score.score, counted=score.counted
                )
            )
        return ClubBoardView(period=month.id, rows=rows)
