"""A scripted client's fair-play checks (S7), answered as a person at the table answers them.

A script plays too fast and too regularly for the server's liking (yamb.social.fairplay), so
its games bring "not a robot" checks, and its moves are refused while one is open. The e2e
players, the soak and the benchmarks answer them here: the die showing the asked face, then the
moves refused meanwhile sent again, each with its own requestId, once the check has passed.

The frames may come in any order, since one connection's messages run two at a time: the
refusal before or after the check's own frame, the result before or after the refusal.
"""

from collections.abc import Callable
from typing import Any

REFUSED_FOR_A_CHECK = "fairplay_check"
# The requestId of an answer: its own frames are nothing a script waits for.
ANSWER_PREFIX = "fairplay-answer-"


class FairplayAnswers:
    """Call `sent` with every message sent, and `handled` with every frame received: True
    when the frame was this business only (the caller skips it)."""

    def __init__(self, send: Callable[[dict[str, Any]], None]) -> None:
        self._send = send
        self._sent: dict[str, dict[str, Any]] = {}
        self._open: set[str] = set()
        self._closed: set[str] = set()
        self._held: list[str] = []
        self.checks_passed = 0

    def sent(self, message: dict[str, Any]) -> None:
        request_id = message.get("requestId")
        if isinstance(request_id, str):
            self._sent[request_id] = message
            if len(self._sent) > 1000:  # the latest are the ones a refusal names
                del self._sent[next(iter(self._sent))]

    def handled(self, frame: dict[str, Any]) -> bool:
        kind = frame.get("type")
        if kind == "error" and frame.get("code") == REFUSED_FOR_A_CHECK:
            # The check's frame follows the refusal: held until the check has passed.
            self._held.append(frame["requestId"])
            return True
        if kind == "fairplay_check":
            self._checked(frame)
            return True
        if kind == "fairplay_result":
            if not frame["passed"]:
                raise AssertionError(f"a scripted player failed a fair-play check: {frame}")
            self._open.discard(frame["checkId"])
            self._closed.add(frame["checkId"])
            self.checks_passed += 1
            self._send_held()
            return True
        return str(frame.get("requestId", "")).startswith(ANSWER_PREFIX)

    def _checked(self, frame: dict[str, Any]) -> None:
        check_id = frame["checkId"]
        if check_id in self._closed:  # sent again with a refusal that crossed the answer
            self._send_held()
        elif check_id not in self._open:
            self._open.add(check_id)
            answer = {
                "action": "fairplay_answer",
                "requestId": ANSWER_PREFIX + check_id,
                "gameId": frame["gameId"],
                "checkId": check_id,
                "position": frame["dice"].index(frame["face"]),
            }
            self._send(answer)

    def _send_held(self) -> None:
        held, self._held = self._held, []
        for request_id in held:
            if request_id in self._sent:
                self._send(self._sent[request_id])
