"""What calls for a push (issue 28, A8): a regular game's return countdown started (the player's
connection went), a slow game waiting for the player's turn (the return reminder's moment), a
prize paid (the prize payout). Each hands one PushRequest to the push function (here a recording
`Pusher`); a push that cannot be handed over never fails the write that called for it."""

from typing import Any

import pytest
from yamb.push.messages import PushKind, PushRequest
from yamb_service.edge.caller import Caller
from yamb_service.push.invoke import LambdaPusher
from yamb_service.results import wiring as results_wiring

from tests.integration.test_boards_http import ANA, BEN, load_event
from tests.integration.test_prizes_job import (  # noqa: F401 - its fixture
    Prizes,
    functions,
    prizes,
)

ana, ben = Caller("ana", "conn-ana"), Caller("ben", "conn-ben")
SLOW = {"columns": ["free"], "preset": None, "turnType": "slow", "turnSeconds": None}
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


class RecordingPusher:
    def __init__(self) -> None:
        self.pushed: list[PushRequest] = []

    def push(self, request: PushRequest) -> None:
        self.pushed.append(request)


@pytest.fixture
def pusher(harness: Any) -> RecordingPusher:
    recording = RecordingPusher()
    harness.service.pusher = recording
    return recording


def test_a_regular_game_s_return_countdown_is_pushed_to_the_away_player(
    harness: Any, pusher: RecordingPusher
) -> None:
    # given a regular running game of ana and ben
    game_id = harness.running_game(ana, ben, columns=["free"], preset=None)

    # when ben's connection goes
    harness.service.disconnect(ben)

    # then ben's phone is told his countdown started, once, and ana's is told nothing
    assert pusher.pushed == [
        PushRequest(player_id="ben", kind=PushKind.RETURN_COUNTDOWN, game_id=game_id)
    ]

    # when he is back and the game goes on, nothing more is pushed
    harness.connect(ben)
    assert len(pusher.pushed) == 1


def test_a_slow_game_pushes_no_countdown_but_the_turn_waiting(
    harness: Any, pusher: RecordingPusher
) -> None:
    # given a slow game of a week that ben left
    game_id = harness.running_game(ana, ben, slowDeadlineHours=168, **SLOW)
    harness.service.disconnect(ben)

    # then no countdown is pushed (a slow game has none)
    assert pusher.pushed == []

    # when a day passes (the moment of his return reminder)
    harness.advance(hours=24, seconds=1)

    # then his phone is told the game waits for his turn, once
    assert pusher.pushed == [PushRequest(player_id="ben", kind=PushKind.YOUR_TURN, game_id=game_id)]
    harness.advance(hours=30)
    assert len(pusher.pushed) == 1


def test_a_waiting_table_s_reminder_is_no_push(harness: Any, pusher: RecordingPusher) -> None:
    # given ben at ana's waiting table of three, away
    harness.connect(ana, ben)
    game_id = harness.create_game(ana, players=3)
    harness.ack(ben, harness.act(ben, "join_game", gameId=game_id))
    harness.service.disconnect(ben)

    # when his reminder comes (ten minutes)
    harness.advance(minutes=10, seconds=1)

    # then nothing is pushed: a table that waits is no turn of his
    assert pusher.pushed == []


def test_each_prize_paid_is_pushed_to_its_winner_once(prizes: Prizes) -> None:  # noqa: F811
    # given the prize service's pusher recorded
    pusher = RecordingPusher()
    results_wiring.prize_service().pusher = pusher

    # when the week's payout runs, then runs again
    prizes.run(load_event("prize_payout_week.json"))
    prizes.run(load_event("prize_payout_week.json"))

    # then each winner's phone was told once, with the tokens and the board
    board = "individual/main/best/2026-W49"
    assert pusher.pushed == [
        PushRequest(player_id=ANA, kind=PushKind.PRIZE_PAID, tokens=100, board=board),
        PushRequest(player_id=BEN, kind=PushKind.PRIZE_PAID, tokens=60, board=board),
    ]


def test_a_push_that_cannot_be_handed_over_fails_nothing() -> None:
    # given a Lambda client that fails (the push function throttled, the network down)
    class Failing:
        def invoke(self, **call: Any) -> None:
            raise ConnectionError("no route to Lambda")

    pusher = LambdaPusher(Failing, "push")

    # when a push is handed over, then nothing is raised to the caller
    pusher.push(PushRequest(player_id="ben", kind=PushKind.YOUR_TURN, game_id="g"))


def test_a_push_is_handed_over_as_an_asynchronous_invocation() -> None:
    # given a Lambda client that records its calls
    calls: list[dict[str, Any]] = []

    class Recording:
        def invoke(self, **call: Any) -> None:
            calls.append(call)

    # when a push is handed over
    LambdaPusher(Recording, "arn:push").push(
        PushRequest(player_id="ben", kind=PushKind.RETURN_COUNTDOWN, game_id="g")
    )

    # then it is an Event invocation of the push function with the request as JSON
    assert calls == [
        {
            "FunctionName": "arn:push",
            "InvocationType": "Event",
            "Payload": b'{"playerId":"ben","kind":"return_countdown","gameId":"g"}',
        }
    ]
