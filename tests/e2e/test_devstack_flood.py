"""On the local stack, one connection's flood does not delay another player (issue 9, item 3).

One player sends 200 `sync` frames as fast as the socket takes them; another player's
`list_games`, sent just after, is answered at once, while most of the flood still waits: on AWS
each frame is its own invocation and connections do not wait on each other. (The service's own
rate limit per connection may answer part of the flood with `slow_down` and drop the rest:
either way each frame is an invocation the gateway runs.)
"""

import json
import threading
import time
from typing import Any

from websockets.sync.client import connect

from devstack.stack import LocalStack

FLOOD = 200
ANSWER_WITHIN = 1.0  # seconds (about 0.05 s here; behind the flood, the flood's own ~2 s)
QUIET = 3.0  # seconds without an answer: the rest of the flood was dropped


def test_a_flood_of_syncs_does_not_delay_another_players_list_games(stack: LocalStack) -> None:
    flooder_url = f"{stack.url}?token={stack.player_token('flooder')}"
    player_url = f"{stack.url}?token={stack.player_token('patient')}"
    with connect(flooder_url) as flooder, connect(player_url) as player:
        # given a player whose list_games is answered (warm functions)
        assert _answer(player, "warm-up")["type"] == "game_list"
        # and a flooder whose answers are counted as they arrive
        answered: list[float] = []
        reader = threading.Thread(target=_count_answers, args=(flooder, answered), daemon=True)
        reader.start()
        # when the flooder sends 200 syncs as fast as it can, and the player lists the games
        for number in range(FLOOD):
            flooder.send(json.dumps({"action": "sync", "requestId": f"flood-{number}"}))
        started = time.monotonic()
        answer = _answer(player, "during-the-flood")
        elapsed = time.monotonic() - started
        flood_answered_before = len(answered)
        reader.join(timeout=60)
    # then the player's answer came at once, before half of the flood was answered
    assert answer["type"] == "game_list"
    assert elapsed < ANSWER_WITHIN, f"list_games answered after {elapsed:.2f} s"
    assert flood_answered_before < FLOOD // 2, f"{flood_answered_before} syncs answered first"


def _answer(player: Any, request_id: str) -> dict[str, Any]:
    player.send(json.dumps({"action": "list_games", "requestId": request_id}))
    while True:
        frame: dict[str, Any] = json.loads(player.recv(timeout=30))
        if frame.get("requestId") == request_id:
            return frame


def _count_answers(flooder: Any, answered: list[float]) -> None:
    """Counts the flood's answers until they are all in, or none came for QUIET seconds."""
    while len(answered) < FLOOD:
        try:
            frame = json.loads(flooder.recv(timeout=QUIET))
        except TimeoutError:
            return
        if str(frame.get("requestId", "")).startswith("flood-"):
            answered.append(time.monotonic())
