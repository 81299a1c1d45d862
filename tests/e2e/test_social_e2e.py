"""Social on the local stack over real sockets and the HTTP API (issue 30): two players find
each other in the players list, message each other, one invites the other, they play; three
other players report a general-chat line and it is hidden; an operator (made one by the
moderation command) reviews it."""

import json
import time
import urllib.error
import urllib.request
from typing import Any

from yamb_tools.moderation import grant

from devstack.stack import LocalStack, local_nickname


def call(
    stack: LocalStack, method: str, path: str, token: str, body: Any = None
) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{stack.gateway.http_url}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def answer(player: Any, action: str, kind: str, **fields: Any) -> dict[str, Any]:
    request_id = player.send(action, **fields)
    while True:
        frame = player.receive(kind)
        if frame.get("requestId") == request_id:
            return frame


def test_social_find_message_invite_play_report_and_review(stack: LocalStack, players: Any) -> None:
    # given ana and ben, connected
    ana, ben = players("soc-ana"), players("soc-ben")
    ana_name, ben_name = local_nickname(ana.name), local_nickname(ben.name)
    # her connection's token (a new sign-in would sign that connection out: one device at a time)
    ana_token = ana.url.split("token=", 1)[1]

    # when ana looks ben up in the players list by the first letters of his name
    status, page = call(stack, "GET", f"/players?prefix={ben_name[:-1].upper()}", ana_token)
    # then he is there, online and free
    assert status == 200
    (row,) = [r for r in page["players"] if r["nickname"] == ben_name]
    assert row["presence"] == "free"

    # when she writes to him, he reads it live and answers
    sent = answer(ana, "send_message", "message", to=ben_name, text="a game?")
    received = ben.receive("message")
    assert received["message"]["id"] == sent["message"]["id"]
    answer(ben, "send_message", "message", to=ana_name, text="sure")
    assert ana.receive("message")["message"]["text"] == "sure"

    # when she opens a table and invites him; he says yes and she starts
    game = answer(ana, "create_game", "game", settings={"preset": 1, "players": 2})["game"]
    answer(ana, "invite", "invitation", gameId=game["gameId"], nickname=ben_name)
    invitation = ben.receive("invitation")["invitation"]
    seated = answer(
        ben, "answer_invitation", "game", invitationId=invitation["invitationId"], accept=True
    )
    assert len(seated["game"]["seats"]) == 2
    assert ana.receive("invitation_answer")["accepted"] is True
    started = answer(ana, "start_game", "game", gameId=game["gameId"])
    assert started["game"]["status"] == "running"
    # and the list shows both in a game
    _, page = call(stack, "GET", f"/players?prefix={ben_name}", ana_token)
    assert [r["presence"] for r in page["players"] if r["nickname"] == ben_name] == ["in_game"]

    # when ben says something rude-but-decent in the general chat (a second after his last
    # message: one a second), and three others report it
    time.sleep(1.1)
    line = answer(ben, "general_chat", "general_chat", text="you all play like potatoes")["lines"][
        0
    ]
    reported = {"kind": "message", "message": {"channel": "general", "id": line["id"]}}
    tokens = [stack.player_token(f"soc-rep{n}") for n in range(3)]

    def report(token: str, reason: str = "abuse") -> tuple[int, Any]:
        return call(stack, "POST", "/reports", token, {**reported, "reason": reason})

    first, second = report(tokens[0]), report(tokens[1])
    repeat = report(tokens[0], "spam")
    third = report(tokens[2])
    # then each is filed, a repeat by the same reporter is refused, the third hides the line
    assert [first[0], second[0], third[0]] == [201, 201, 201]
    assert [first[1]["hidden"], second[1]["hidden"], third[1]["hidden"]] == [False, False, True]
    assert repeat[0] == 409 and repeat[1]["error"]["code"] == "already_reported"
    # and nobody opening the general chat reads it any more
    opened = answer(ana, "general_chat_open", "general_chat")
    assert line["id"] not in [shown["id"] for shown in opened["lines"]]

    # when an operator is made one by the command, reads the queue and keeps the line hidden
    operator = "soc-op"
    operator_token = stack.player_token(operator)
    assert call(stack, "GET", "/moderation/cases", operator_token)[0] == 403
    grant(
        local_nickname(operator),
        stack.aws.physical_ids["GameTable"],
        stack.aws.region,
        stack.aws.endpoint_url,
        True,
    )
    status, queue = call(stack, "GET", "/moderation/cases", operator_token)
    (case,) = [c for c in queue["cases"] if c["caseId"] == f"general:{line['id']}"]
    assert case["content"] == "you all play like potatoes" and case["reporters"] == 3
    status, reviewed = call(
        stack, "POST", f"/moderation/cases/{case['caseId']}", operator_token, {"action": "hide"}
    )
    # then the case is closed and leaves the queue
    assert (status, reviewed["status"]) == (200, "removed")
    _, queue = call(stack, "GET", "/moderation/cases", operator_token)
    assert case["caseId"] not in [c["caseId"] for c in queue["cases"]]


def test_fairplay_a_script_fast_at_the_table_is_checked_and_plays_on_once_it_answers(
    stack: LocalStack, players: Any
) -> None:
    # given a scripted player that looks at its checks itself here (the e2e players answer
    # theirs as they come), at a solo table
    bot_like = players("fp-quick")
    bot_like.answers_checks = False
    token = bot_like.url.split("token=", 1)[1]
    game = bot_like.act("create_game", settings={"players": 1, "preset": 1, "turnSeconds": None})
    game = bot_like.act("start_game", gameId=game["gameId"])

    # when it rolls and writes as fast as a socket goes, until the server asks
    check = None
    while check is None:
        if game["turn"]["canRoll"]:
            game = bot_like.act("roll", gameId=game["gameId"], keep=[])
        cell = game["turn"]["legal"][0]
        request_id = bot_like.send(
            "write", gameId=game["gameId"], column=cell["column"], row=cell["row"]
        )
        game = bot_like.answer(request_id)["game"]
        assert game["status"] == "running", "a whole game went by without a check"
        try:
            check = bot_like.receive("fairplay_check", timeout=1)
        except TimeoutError:
            continue

    # then its next move is refused until it answers, with the check sent again
    refused = bot_like.send("roll", gameId=game["gameId"], keep=[])
    error = bot_like.receive("error")
    assert (error["requestId"], error["code"]) == (refused, "fairplay_check")
    assert bot_like.receive("fairplay_check")["checkId"] == check["checkId"]
    # and the die showing the asked face passes it; the game goes on
    bot_like.send(
        "fairplay_answer",
        gameId=game["gameId"],
        checkId=check["checkId"],
        position=check["dice"].index(check["face"]),
    )
    result = bot_like.receive("fairplay_result")
    assert (result["passed"], result["cards"], result["banned"]) == (True, 0, False)
    rolled = bot_like.act("roll", gameId=game["gameId"], keep=[])
    assert rolled["turn"]["roll"] == game["turn"]["roll"] + 1
    # and its own standing says so, over HTTP
    status, standing = call(stack, "GET", "/me/fairplay", token)
    assert status == 200
    assert (standing["checksPassed"], standing["cards"], standing["cardsToBan"]) == (1, 0, 3)
