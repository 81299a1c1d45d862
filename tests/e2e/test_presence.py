"""End to end over real WebSockets: a lost connection, the return countdown, coming back in time
and not coming back (rules.md 8)."""

import json
from datetime import datetime, timedelta
from typing import Any

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from yamb_service.game.presence import AWAY_GRACE_SECONDS, HANDSHAKE_LIMIT

from devstack.stack import LocalStack

TWO_WITH_CLOCK = {"players": 2, "preset": 1, "turnSeconds": 60}
TWO_UNLIMITED = {"players": 2, "preset": 1, "turnSeconds": None}
# Preset 1 is two columns of 13 rows: a winner who played fewer turns than this would cancel
# the game (rules.md 8).
HALF_A_SHEET = 13
RETURN_WINDOW = timedelta(minutes=3)
# Room for the local stack's own latency when comparing its clocks with ours.
SLACK = timedelta(seconds=5)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _seat(game: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(seat for seat in game["seats"] if seat["playerId"] == player_id)


def _started_table(
    players: Any, first: str, second: str, settings: dict[str, Any]
) -> tuple[Any, Any, dict[str, Any]]:
    """Two players at a started table; the first (the creator) is in turn."""
    ana, ben = players(first), players(second)
    game_id = ana.act("create_game", settings=settings)["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana.player_id = game["creator"]
    ben.player_id = next(s["playerId"] for s in game["seats"] if s["playerId"] != ana.player_id)
    assert game["turn"]["playerId"] == ana.player_id
    return ana, ben, game


def test_presence_player_in_turn_comes_back_to_the_same_turn_each_time(
    stack: LocalStack, players: Any
) -> None:
    # given a started two-player game with a turn clock: the player in turn locked two dice
    # and rolled (roll 2)
    ana, ben, game = _started_table(players, "ana-returns", "ben-returns", TWO_WITH_CLOCK)
    game_id = game["gameId"]
    game = ana.act("lock", gameId=game_id, keep=[1, 3])
    game = ana.act("roll", gameId=game_id)
    turn = game["turn"]
    assert (turn["roll"], turn["locks"]) == (2, [1, 3])
    assert turn["deadline"] is not None

    # when they lose their connection and come back, three times in the same turn
    frozen: list[int] = []
    for _ in range(3):
        closed_at = stack.aws.clock.now()
        ana.close()
        seen = ben.game_until(lambda g: not _seat(g, ana.player_id)["present"])
        absent = _seat(seen, ana.player_id)
        return_deadline = _at(absent["returnDeadline"])
        assert (
            closed_at + RETURN_WINDOW - SLACK
            <= return_deadline
            <= closed_at + RETURN_WINDOW + SLACK
        )
        assert seen["turn"]["deadline"] is None
        frozen.append(seen["turn"]["frozenMs"])
        stack.aws.advance(seconds=60)  # away a whole minute: the clock stands still
        ana.reconnect()
        synced = ana.answer(ana.send("sync"))
        back_at = stack.aws.clock.now()

        # then each time it is still their turn as they left it: the same roll, dice and
        # locks, and the clock resumes from where it froze
        back = synced["game"]["turn"]
        assert _seat(synced["game"], ana.player_id)["present"]
        assert (back["number"], back["roll"], back["dice"], back["locks"]) == (
            turn["number"],
            2,
            turn["dice"],
            [1, 3],
        )
        remaining = timedelta(milliseconds=max(seen["turn"]["frozenMs"], 5_000))
        deadline = _at(back["deadline"])
        assert back_at + remaining - SLACK <= deadline <= back_at + remaining + SLACK
        ben.game_until(lambda g: _seat(g, ana.player_id)["present"])
    # and the minutes away took nothing off the clock
    assert max(frozen) - min(frozen) < SLACK.total_seconds() * 1000


def test_presence_turn_clock_runs_out_on_the_local_clock(stack: LocalStack, players: Any) -> None:
    # given a started two-player game with a 60 s turn clock
    ana, ben, game = _started_table(players, "ana-slow", "ben-waits", TWO_WITH_CLOCK)
    best = max(cell["score"] for cell in game["turn"]["legal"])

    # when the player in turn does nothing for 61 s
    stack.aws.advance(seconds=61)

    # then the heartbeat lane wakes the game: the server writes the best cell for them, and
    # the other player's turn starts with a full clock
    after = ben.game_until(
        lambda g: g["turn"] is not None and g["turn"]["playerId"] == ben.player_id
    )
    assert after["turn"]["number"] == game["turn"]["number"] + 1
    assert _sheet_total(after, ana.player_id) == best
    remaining = _at(after["turn"]["deadline"]) - stack.aws.clock.now()
    assert timedelta(seconds=60) - SLACK <= remaining <= timedelta(seconds=60)


def _sheet_total(game: dict[str, Any], player_id: str) -> int:
    sheet = next(sheet for sheet in game["sheets"] if sheet["playerId"] == player_id)
    return int(sheet["total"])


def test_presence_player_who_never_returns_loses_and_is_blocked(
    stack: LocalStack, players: Any
) -> None:
    # given a two-player game (no turn clock) in which each has played half of their sheet
    ana, ben, game = _started_table(players, "ana-vanishes", "ben-stays", TWO_UNLIMITED)
    game_id = game["gameId"]
    for _ in range(HALF_A_SHEET):
        for player in (ana, ben):
            cell = game["turn"]["legal"][0]
            game = player.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    assert game["turn"]["playerId"] == ana.player_id

    # when the player in turn loses their connection and never comes back
    ana.close()

    # then the other player sees them absent, then, 3 minutes later, gone: they win at once and
    # are offered to finish their sheet
    absent = ben.game_until(lambda g: not _seat(g, ana.player_id)["present"])
    assert _seat(absent, ana.player_id)["returnDeadline"] is not None
    assert absent["finishOffer"] is None
    stack.aws.advance(minutes=3, seconds=1)
    offered = ben.game_until(lambda g: _seat(g, ana.player_id)["left"], timeout=15)
    assert offered["status"] == "running"
    assert offered["winners"] == [ben.player_id]
    assert offered["finishOffer"] == ben.player_id
    assert offered["outcome"] is None
    assert _seat(offered, ana.player_id)["returnDeadline"] is None

    # when the remaining player declines to finish their sheet
    game = ben.act("finish_sheet", gameId=game_id, accept=False)

    # then the game ends at once with their win, and no offer is left
    assert game["status"] == "finished"
    assert game["outcome"] == "declined_finish"
    assert game["winners"] == [ben.player_id]
    assert game["finishOffer"] is None

    # when the player who disappeared connects again and creates a game
    ana.reconnect()
    request_id = ana.send("create_game", settings=TWO_WITH_CLOCK)
    error = ana.receive("error")

    # then they are refused: joining is blocked for a while
    assert error["requestId"] == request_id
    assert error["code"] == "cooldown"


def _game_frames_until_quiet(player: Any, quiet: float = 1.5) -> list[dict[str, Any]]:
    """The game frames `player` gets until none comes for `quiet` seconds."""
    games = []
    while True:
        try:
            frame = json.loads(player.socket.recv(timeout=quiet))
        except TimeoutError:
            return games
        if frame.get("type") == "game":
            games.append(frame["game"])


def test_presence_flapping_player_is_refused_past_the_handshake_limit(
    stack: LocalStack, players: Any
) -> None:
    # given a started two-player game, the first player's connection closed, and the stack's
    # clock at the start of a handshake window
    ana, ben, _ = _started_table(players, "ana-flaps", "ben-sees-it", TWO_UNLIMITED)
    ana.close()
    ben.game_until(lambda g: not _seat(g, ana.player_id)["present"])
    window = HANDSHAKE_LIMIT.window_seconds
    stack.aws.advance(seconds=window - stack.aws.clock.now().timestamp() % window + 0.1)
    before = ben.answer(ben.send("sync"))["game"]["version"]

    # when the first player's device connects and closes 50 times in a row
    answers = []
    for _ in range(50):
        try:
            with connect(ana.url):
                answers.append(200)
        except InvalidStatus as refused:
            answers.append(refused.response.status_code)

    # then the handshakes up to the player's limit are accepted, the rest refused with 429
    limit = HANDSHAKE_LIMIT.handshakes
    assert answers == [200] * limit + [429] * (50 - limit)
    # and the flapping cost the other seat two frames and two versions: back at the first
    # connection, away after the last close (every other close was followed by a connect
    # within the grace, which relinked the seat unseen)
    frames = _game_frames_until_quiet(ben, quiet=AWAY_GRACE_SECONDS + 1.5)
    after = ben.answer(ben.send("sync"))["game"]["version"]
    assert [_seat(g, ana.player_id)["present"] for g in frames] == [True, False]
    assert after == before + 2


def test_presence_player_back_within_the_grace_costs_the_table_nothing(
    stack: LocalStack, players: Any
) -> None:
    # given a started two-player game, the first player in turn
    ana, ben, game = _started_table(players, "ana-blinks", "ben-unaware", TWO_WITH_CLOCK)
    game_id = game["gameId"]

    # when her connection drops and she is back at once
    ana.reconnect()
    synced = ana.answer(ana.send("sync"))["game"]

    # then the other player got no frame, the game no version, and she is present, in turn
    frames = _game_frames_until_quiet(ben, quiet=AWAY_GRACE_SECONDS + 1.5)
    assert [g for g in frames if g["version"] > game["version"]] == []
    assert synced["version"] == game["version"]
    assert _seat(synced, ana.player_id)["present"]
    # and the game reaches her new connection: she plays, and sees the other's turn
    cell = synced["turn"]["legal"][0]
    ana.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    ben.act("roll", gameId=game_id, keep=[])
    seen = ana.game_until(
        lambda g: g["turn"]["playerId"] == ben.player_id and g["turn"]["roll"] == 2
    )
    assert seen["version"] == game["version"] + 2
