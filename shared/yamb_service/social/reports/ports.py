"""What reports need from storage (yamb_service.social.reports.dynamo)."""

from datetime import datetime
from typing import Protocol

from yamb.social.reports import Case, CaseStatus, Report, Target


class ReportStore(Protocol):
    def file(self, target: Target, content: str, report: Report, day: str) -> Case:
        """The report added to its target's case (opened with `content` if new), counted
        against the reporter's day, in one transaction. Raises ReportRefusedError
        ("already_reported" or "report_limit") when it cannot be."""

    def case(self, case_id: str) -> Case | None: ...

    def open_cases(self, limit: int) -> list[Case]:
        """The cases waiting for review, oldest first."""

    def set_status(
        self, case: Case, status: CaseStatus, *, by: str | None, note: str | None, now: datetime
    ) -> Case:
        """The case's new status (it leaves the queue when reviewed)."""

    def count_day(self, player_id: str, what: str, now: datetime, limit: int) -> bool:
        """One more of `what` counted on the player's day, if fewer than `limit` were;
        False when the day is full (nothing counted)."""


class ReportRefusedError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code
