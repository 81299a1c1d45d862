"""Game service figures: item size of a finished 4-player 9-column game, the round trip of a
`roll` through the local stack, and each handler's cold import.

    make bench
"""

import json
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANDLERS = ("authorizer", "connections", "game", "clock")
IMPORT_RUNS = 5


def finished_item_size() -> int:
    from yamb.dice import SeededDice
    from yamb.session import play
    from yamb.settings import validate_settings

    now = datetime.now(UTC)
    dice = SeededDice(7)
    settings = validate_settings({"players": 4, "preset": 7, "turnSeconds": 60})
    session = play.create("bench", "p0", "c0", settings, now)
    for seat in range(1, 4):
        play.join(session, f"p{seat}", f"c{seat}")
    play.start(session, "p0", now, dice)
    while session.status == "running":
        game = session.game()
        game.play_auto_move()
        if not game.finished:
            game.start_turn(tuple(dice.faces(5)))
        session.store(game)
        if game.finished:
            session.status = "finished"
    return len(session.model_dump_json().encode())


def cold_import_ms(handler: str) -> float:
    code = (
        "import sys, time; sys.path[:0] = ['shared', 'functions/" + handler + "'];"
        "t = time.perf_counter(); import app; print((time.perf_counter() - t) * 1000)"
    )
    samples = [
        float(subprocess.check_output([sys.executable, "-c", code], cwd=ROOT, text=True))
        for _ in range(IMPORT_RUNS)
    ]
    return statistics.median(samples)


def roll_round_trip_ms(rounds: int = 20) -> float:
    from websockets.sync.client import connect

    from devstack.stack import LocalStack

    with LocalStack() as stack:
        url = f"{stack.url}?token={stack.player_token('bench')}"
        with connect(url) as socket:

            def act(action: str, **fields: object) -> dict[str, object]:
                """The game state broadcast right after this action's ack."""
                request_id = f"b{time.time_ns()}"
                socket.send(json.dumps({"action": action, "requestId": request_id, **fields}))
                acknowledged = False
                while True:
                    frame = json.loads(socket.recv(timeout=10))
                    if frame["type"] == "error":
                        raise RuntimeError(frame)
                    acknowledged |= frame.get("requestId") == request_id
                    if acknowledged and frame["type"] == "game":
                        return frame["game"]  # type: ignore[no-any-return]

            socket.send(
                json.dumps(
                    {
                        "action": "create_game",
                        "requestId": "create",
                        "settings": {"players": 1, "preset": 7, "turnSeconds": None},
                    }
                )
            )
            game_id = json.loads(socket.recv(timeout=10))["gameId"]
            act("start_game", gameId=game_id)
            samples = []
            for _ in range(rounds):
                started = time.perf_counter()
                game = act("roll", gameId=game_id, keep=[])
                samples.append((time.perf_counter() - started) * 1000)
                cell = game["turn"]["legal"][0]  # type: ignore[index]
                act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    return statistics.median(samples)


def main() -> None:
    print("game service")
    print(f"  item size, finished 4-player 9-column game: {finished_item_size() / 1024:.1f} KiB")
    for handler in HANDLERS:
        print(
            f"  cold import, {handler:<11}: {cold_import_ms(handler):6.0f} ms "
            f"(median of {IMPORT_RUNS}; aim < 300 ms)"
        )
    median = roll_round_trip_ms()
    print(f"  roll round trip through the local stack: {median:.1f} ms (median of 20)")


if __name__ == "__main__":
    main()
