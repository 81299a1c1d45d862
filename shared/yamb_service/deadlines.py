"""Starting deadline timers: one Step Functions execution per deadline, named after what it
guards, so that starting the same deadline twice is harmless."""

import contextlib
import json
from datetime import datetime, timedelta
from typing import Any, Protocol

from yamb.session.play import Deadline

TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class DeadlineScheduler(Protocol):
    def schedule(self, deadline: Deadline) -> None: ...


def deadline_input(deadline: Deadline) -> dict[str, Any]:
    return {
        "kind": deadline.kind,
        "gameId": deadline.game_id,
        "turn": deadline.turn,
        "version": deadline.version,
        "playerId": deadline.player_id,
        # Step Functions' TimestampPath needs the Z form; seconds are rounded up, never early.
        "deadline": _ceil_to_second(deadline).strftime(TIMESTAMP_FORMAT),
    }


def _ceil_to_second(deadline: Deadline) -> datetime:
    moment = deadline.at
    if moment.microsecond:
        moment = moment.replace(microsecond=0) + timedelta(seconds=1)
    return moment


class StepFunctionsScheduler:
    def __init__(self, client: Any, state_machine_arn: str) -> None:
        self._client = client
        self._arn = state_machine_arn

    def schedule(self, deadline: Deadline) -> None:
        # The same deadline started twice: AWS returns the first execution, moto raises.
        with contextlib.suppress(self._client.exceptions.ExecutionAlreadyExists):
            self._client.start_execution(
                stateMachineArn=self._arn,
                name=deadline.name,
                input=json.dumps(deadline_input(deadline)),
            )


class RecordingScheduler:
    def __init__(self) -> None:
        self.scheduled: list[Deadline] = []

    def schedule(self, deadline: Deadline) -> None:
        self.scheduled.append(deadline)
