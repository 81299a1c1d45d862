"""Reports on the game table:

- a case: `REPORT#<case id>` / `CASE` (`entry`: the Case as JSON without its reports, `tally`:
  its reporters); listed on `gsi1` under `CASES#open` by when it opened while it waits for
  review;
- a report: `REPORT#<case id>` / `BY#<reporter>` (`entry`: the Report as JSON): one per reporter
  and target (put only if absent);
- a reporter's day: `PLAYER#<reporter>` / `REPORTS#<day>` (`tally`, at most DAILY_LIMIT;
  `expires_at` two days on); a player's contact messages of a day: `PLAYER#<id>` /
  `CONTACT#<day>` (the same, at most 3).

A report is one transaction of the three: a second report of the same target, or the eleventh
of the day, fails its condition and nothing is written.
"""

from datetime import UTC, datetime, timedelta

from pynamodb.exceptions import (
    DoesNotExist,
    PynamoDBException,
    TransactWriteError,
    UpdateError,
)
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite
from yamb.social.reports import DAILY_LIMIT, TO_REVIEW, Case, CaseStatus, Report, Target

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, player_key
from yamb_service.social.reports.ports import ReportRefusedError

_CASE, _QUEUE = "CASE", "CASES#open"


def _key(case_id: str) -> str:
    return f"REPORT#{case_id}"


def _moment(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


class DynamoReportStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def file(self, target: Target, content: str, report: Report, day: str) -> Case:
        item = self._item
        key = _key(target.case_id)
        opened = Case(case_id=target.case_id, target=target, content=content, opened_at=report.at)
        day_item = item(player_key(report.reporter), f"REPORTS#{day}")
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                write.save(
                    item(key, f"BY#{report.reporter}", entry=report.model_dump_json()),
                    condition=item.sk.does_not_exist(),
                )
                write.update(
                    item(key, _CASE),
                    [
                        item.entry.set(item.entry | opened.model_dump_json(exclude={"reports"})),
                        item.tally.add(1),
                        item.gsi1pk.set(item.gsi1pk | _QUEUE),
                        item.gsi1sk.set(item.gsi1sk | f"{_moment(report.at)}#{target.case_id}"),
                    ],
                )
                write.update(
                    day_item,
                    [
                        item.tally.add(1),
                        item.expires_at.set(int((report.at + timedelta(days=2)).timestamp())),
                    ],
                    condition=item.tally.does_not_exist() | (item.tally < DAILY_LIMIT),
                )
        except TransactWriteError as error:
            reasons = getattr(error, "cancellation_reasons", None) or []
            codes = [reason.code if reason is not None else None for reason in reasons]
            if codes and codes[0] == "ConditionalCheckFailed":
                raise ReportRefusedError("already_reported") from None
            if len(codes) > 2 and codes[2] == "ConditionalCheckFailed":
                raise ReportRefusedError("report_limit") from None
            raise busy_or(error) from error
        found = self.case(target.case_id)
        assert found is not None
        return found

    def case(self, case_id: str) -> Case | None:
        item = self._item
        try:
            stored = list(item.query(_key(case_id), consistent_read=True))
        except PynamoDBException as error:
            raise busy_or(error) from error
        head = next((s for s in stored if s.sk == _CASE), None)
        if head is None:
            return None
        reports = [
            Report.model_validate_json(s.entry or "{}") for s in stored if s.sk.startswith("BY#")
        ]
        case = Case.model_validate_json(head.entry or "{}")
        return case.model_copy(
            update={
                "reporters": int(head.tally or 0),
                "reports": sorted(reports, key=lambda r: r.at),
            }
        )

    def open_cases(self, limit: int) -> list[Case]:
        try:
            ids = [
                (stored.gsi1sk or "").split("#", 1)[1]
                for stored in self._item.gsi1.query(_QUEUE, limit=limit)
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error
        return [case for case_id in ids if (case := self.case(case_id)) is not None]

    def set_status(
        self, case: Case, status: CaseStatus, *, by: str | None, note: str | None, now: datetime
    ) -> Case:
        item = self._item
        changed = case.model_copy(update={"status": status, "reviewed_by": by, "review_note": note})
        actions: list[Action] = [item.entry.set(changed.model_dump_json(exclude={"reports"}))]
        if status not in TO_REVIEW:
            actions += [item.gsi1pk.remove(), item.gsi1sk.remove()]
        try:
            item(_key(case.case_id), _CASE).update(actions=actions, condition=item.sk.exists())
        except DoesNotExist:
            raise ReportRefusedError("unknown_case") from None
        except PynamoDBException as error:
            raise busy_or(error) from error
        return changed

    def count_day(self, player_id: str, what: str, now: datetime, limit: int) -> bool:
        item = self._item
        try:
            item(player_key(player_id), f"{what}#{now.date().isoformat()}").update(
                actions=[
                    item.tally.add(1),
                    item.expires_at.set(int((now + timedelta(days=2)).timestamp())),
                ],
                condition=item.tally.does_not_exist() | (item.tally < limit),
            )
        except UpdateError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True
