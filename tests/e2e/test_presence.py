"""End to end over real WebSockets: a lost connection, the return countdown, coming back in time
and not coming back (rules.md 8)."""

from datetime import UTC, datetime, timedelta
from typing import Any

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
    ana.send("create_game", settings=settings)
    game_id = ana.receive("ack")["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana.player_id = game["creator"]
    ben.player_id = next(s["playerId"] for s in game["seats"] if s["playerId"] != ana.player_id)
    assert game["turn"]["playerId"] == ana.player_id
    return ana, ben, game


def test_presence_player_in_turn_comes_back_to_a_new_roll_and_a_running_clock(
    players: Any,
) -> None:
    # given a started two-player game with a turn clock, the player in turn at roll 2
    ana, ben, game = _started_table(players, "ana-returns", "ben-returns", TWO_WITH_CLOCK)
    game_id = game["gameId"]
    game = ana.act("roll", gameId=game_id, keep=[])
    assert game["turn"]["roll"] == 2
    assert game["turn"]["deadline"] is not None

    # when the player in turn loses their connection
    closed_at = datetime.now(UTC)
    ana.close()

    # then the other player sees them absent, a 3-minute return countdown and a frozen clock
    seen = ben.game_until(lambda g: not _seat(g, ana.player_id)["present"])
    absent = _seat(seen, ana.player_id)
    assert not absent["left"]
    return_deadline = _at(absent["returnDeadline"])
    assert closed_at + RETURN_WINDOW - SLACK <= return_deadline <= closed_at + RETURN_WINDOW + SLACK
    assert seen["status"] == "running"
    assert seen["turn"]["playerId"] == ana.player_id
    assert seen["turn"]["deadline"] is None
    assert 0 < seen["turn"]["frozenMs"] <= 60_000

    # when they come back with a new connection (the same token) and ask for the game
    ana.reconnect()
    request_id = ana.send("sync")
    synced = ana.receive("game")
    back_at = datetime.now(UTC)

    # then it is still their turn, restarted with a new roll 1, and the clock runs again
    assert synced["requestId"] == request_id
    game = synced["game"]
    assert game["status"] == "running"
    assert _seat(game, ana.player_id)["present"]
    assert _seat(game, ana.player_id)["returnDeadline"] is None
    assert game["turn"]["playerId"] == ana.player_id
    assert game["turn"]["number"] == seen["turn"]["number"]
    assert game["turn"]["roll"] == 1
    assert game["turn"]["canRoll"]
    assert game["turn"]["frozenMs"] is None
    deadline = _at(game["turn"]["deadline"])
    remaining = timedelta(milliseconds=max(seen["turn"]["frozenMs"], 5_000))
    assert back_at + remaining - SLACK <= deadline <= back_at + remaining + SLACK
    # and the other player sees them back
    back = ben.game_until(lambda g: _seat(g, ana.player_id)["present"])
    assert back["turn"]["roll"] == 1
    assert back["turn"]["deadline"] == game["turn"]["deadline"]


def test_presence_player_who_never_returns_loses_and_is_blocked(
    stack: LocalStack, players: Any
) -> None:
    # given a two-player game (no turn clock) in which each has played half of their sheet,
    # and the return countdown fast-forwarded
    ana, ben, game = _started_table(players, "ana-vanishes", "ben-stays", TWO_UNLIMITED)
    game_id = game["gameId"]
    for _ in range(HALF_A_SHEET):
        for player in (ana, ben):
            cell = game["turn"]["legal"][0]
            game = player.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    assert game["turn"]["playerId"] == ana.player_id
    stack.aws.fast_forward_waits(1.0)
    try:
        # when the player in turn loses their connection and never comes back
        ana.close()

        # then the other player sees them absent, then gone: they win at once and are offered
        # to finish their sheet
        absent = ben.game_until(lambda g: not _seat(g, ana.player_id)["present"])
        assert _seat(absent, ana.player_id)["returnDeadline"] is not None
        assert absent["finishOffer"] is None
        offered = ben.game_until(lambda g: _seat(g, ana.player_id)["left"], timeout=15)
    finally:
        stack.aws.fast_forward_waits(False)
    assert offered["status"] == "running"
    assert offered["winners"] == [ben.player_id]
    assert offered["finishOffer"] == ben.player_id
    assert offered["outcome"] == "abandoned"

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
