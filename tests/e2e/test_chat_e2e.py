"""End to end over real WebSockets: game chat between players and a spectator (product G9)."""

from typing import Any

from devstack.stack import LocalStack


def test_chat_over_the_local_stack_reaches_players_and_spectators(
    stack: LocalStack, players: Any
) -> None:
    # given a running game of two, watched by a third
    ana, ben, watcher = players("chat-ana"), players("chat-ben"), players("chat-watcher")
    game_id = ana.act("create_game", settings={"players": 2, "preset": 1})["gameId"]
    ben.act("join_game", gameId=game_id)
    ana.act("start_game", gameId=game_id)
    watcher.act("watch_game", gameId=game_id)

    # when ana writes, and the spectator answers
    sent = ana.answer(ana.send("chat", gameId=game_id, text="good luck"))
    heard = ben.receive("chat")
    watched = watcher.receive("chat")
    reply = watcher.answer(watcher.send("chat", gameId=game_id, text="may the best win"))

    # then each message reaches the others, the spectator's marked as such
    assert sent["text"] == heard["text"] == watched["text"] == "good luck"
    assert heard["spectator"] is False
    assert reply["spectator"] is True
    from_watcher = ana.receive("chat")
    assert (from_watcher["text"], from_watcher["spectator"]) == ("may the best win", True)

    # and a refused message reaches nobody, with its code
    ben.send("chat", gameId=game_id, text="x" * 300)
    assert ben.receive("error")["code"] == "chat_too_long"
