"""The timers of yamb.session.timers on Step Functions: one heartbeat lane execution per game
(statemachines/lane.asl.json) and one-shot wake executions (statemachines/wake.asl.json).

The payloads a timer hands the clock function, and the decision it hands back to a lane, are
the models below: producer and consumer share them.
"""

import contextlib
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from botocore.exceptions import BotoCoreError, ClientError
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.alias_generators import to_camel
from yamb.session.timers import wake_moment

from yamb_service.common.errors import ServiceBusyError

# The lane item outlives a game by this much; DynamoDB's TTL removes it then.
LANE_ITEM_TTL = timedelta(days=30)
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class _Payload(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="ignore", frozen=True
    )


class LaneInput(_Payload):
    """A lane execution's input, and what its Woken state returns to arm the task again."""

    game_id: str
    lane: int
    seconds: int = Field(ge=1, description="the heartbeat length: the turn clock")
    expires_at: int = Field(description="Unix time the lane item may be deleted at")
    rearm: bool = True


class LaneWoken(_Payload):
    """The lane's heartbeat ran out: nothing started a turn with a full clock in time."""

    source: Literal["lane"]
    game_id: str
    lane: int


class LaneLost(_Payload):
    """The lane's task could not arm (its error is in the execution's history)."""

    source: Literal["lane_lost"]
    game_id: str
    lane: int


class WakeReached(_Payload):
    source: Literal["wake"]
    game_id: str


type ClockEvent = Annotated[LaneWoken | LaneLost | WakeReached, Field(discriminator="source")]
CLOCK_EVENTS: TypeAdapter[ClockEvent] = TypeAdapter(ClockEvent)


def lane_name(game_id: str, lane: int) -> str:
    return f"{game_id}-lane-{lane}"


def wake_name(game_id: str, second: int, wake_id: int) -> str:
    return f"{game_id}-wake-{second}-{wake_id}"


def lane_input(game_id: str, lane: int, seconds: int, now: datetime) -> LaneInput:
    return LaneInput(
        game_id=game_id,
        lane=lane,
        seconds=seconds,
        expires_at=int((now + LANE_ITEM_TTL).timestamp()),
    )


_TRANSIENT_ERRORS = frozenset(
    {
        "ThrottlingException",
        "ServiceUnavailable",
        "InternalServerError",
        "ServiceQuotaExceededException",
    }
)


def _is_transient(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") in _TRANSIENT_ERRORS


def _execution_arn(state_machine_arn: str, name: str) -> str:
    return f"{state_machine_arn.replace(':stateMachine:', ':execution:', 1)}:{name}"


class StepFunctionsTimers:
    """Starts executions under names derived from what they guard, so that a start repeated by
    a retried write finds the same execution, and stops them by name without a lookup."""

    def __init__(
        self, make_client: Callable[[], Any], *, lane_machine_arn: str, wake_machine_arn: str
    ) -> None:
        # The client is made on the first timer request, not when the function starts.
        self._make_client = make_client
        self._made: Any = None
        self._lane_machine = lane_machine_arn
        self._wake_machine = wake_machine_arn

    @property
    def _client(self) -> Any:
        if self._made is None:
            self._made = self._make_client()
        return self._made

    def _start(self, machine: str, name: str, payload: dict[str, Any]) -> None:
        client = self._client
        try:
            client.start_execution(stateMachineArn=machine, name=name, input=json.dumps(payload))
        except client.exceptions.ExecutionAlreadyExists:
            pass  # the same name and input again: AWS returns the running execution, moto raises
        except (ClientError, BotoCoreError) as error:
            # Past botocore's retries: the change this timer was for is not written.
            if isinstance(error, BotoCoreError) or _is_transient(error):
                raise ServiceBusyError from error
            raise

    def _stop(self, machine: str, name: str) -> None:
        # Already ended (it woke the game) or never started (its write lost): nothing to stop.
        with contextlib.suppress(self._client.exceptions.ExecutionDoesNotExist):
            self._client.stop_execution(executionArn=_execution_arn(machine, name))

    def start_lane(self, game_id: str, lane: int, seconds: int) -> None:
        payload = lane_input(game_id, lane, seconds, datetime.now(UTC))
        self._start(self._lane_machine, lane_name(game_id, lane), payload.model_dump(by_alias=True))

    def beat(self, token: str) -> bool:
        try:
            self._client.send_task_heartbeat(taskToken=token)
        except (
            self._client.exceptions.TaskTimedOut,
            self._client.exceptions.TaskDoesNotExist,
            self._client.exceptions.InvalidToken,
        ):
            return False
        return True

    def stop_lane(self, game_id: str, lane: int) -> None:
        self._stop(self._lane_machine, lane_name(game_id, lane))

    def start_wake(self, game_id: str, second: int, wake_id: int) -> None:
        at = wake_moment(second).strftime(TIMESTAMP_FORMAT)
        self._start(
            self._wake_machine, wake_name(game_id, second, wake_id), {"gameId": game_id, "at": at}
        )

    def stop_wake(self, game_id: str, second: int, wake_id: int) -> None:
        self._stop(self._wake_machine, wake_name(game_id, second, wake_id))
