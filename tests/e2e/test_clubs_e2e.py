"""Clubs over the local stack (issue 31): a club is founded, one player joins at its invitation
and another by approval, the admin gives to the treasury and buys a level; at the next month's
start on the stack's clock two members play a ranked game over the sockets and talk in the
club's chat, and the stream's results function scores the club on the month's club board; a
member's premium ends and the daily job turns her second club dormant, and renewal makes it
live again at her next sign-in."""

import json
import urllib.error
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from yamb.results.periods import month_of
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoPlayerRepository

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until
from tests.e2e.test_results_e2e import play_a_ranked_game


def call(
    stack: LocalStack, method: str, path: str, token: str, body: Any = None, **headers: str
) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{stack.gateway.http_url}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            **headers,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def ok(stack: LocalStack, method: str, path: str, token: str, body: Any = None, **h: str) -> Any:
    status, answer = call(stack, method, path, token, body, **h)
    assert status in (200, 201), (method, path, status, answer)
    return answer


def test_clubs_found_join_give_level_score_and_turn_dormant(
    stack: LocalStack, players: Any
) -> None:
    aws = stack.aws
    item = item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    names = {who: f"clubs-{who}" for who in ("ana", "ben", "cleo", "dora")}
    tokens = {who: stack.player_token(name) for who, name in names.items()}
    nick = {who: local_nickname(name) for who, name in names.items()}

    # given ana's club by approval, which ben asked to join and cleo was invited to
    club = club_of_three(stack, tokens, nick)
    path = f"/clubs/{club['clubId']}"

    # when ana, granted 1,000 tokens, gives 500 (sent twice with one key) and buys a level
    wallets = DynamoWalletStore(item)
    ana_id = _player_id(stack, tokens["ana"])
    wallets.apply(f"grant:{uuid.uuid4()}", [Change(ana_id, 1_000, "grant")], datetime.now(UTC))
    for _ in range(2):
        ok(stack, "POST", f"{path}/donations", tokens["ana"], {"amount": 500},
           **{"Idempotency-Key": "give-500"})  # fmt: skip
    levelled = ok(stack, "POST", f"{path}/level", tokens["ana"])

    # then 500 moved once, the level is bought and paid from the treasury
    assert (levelled["club"]["level"], levelled["club"]["capacity"]) == (1, 35)
    assert levelled["treasury"] == 500 - 400
    assert ok(stack, "GET", "/me/wallet", tokens["ana"])["balance"] == 500

    # when the stack's clock reaches the next month, and ana and ben play a ranked game
    month_start = month_of(aws.clock.now()).end
    assert month_start is not None
    aws.advance(seconds=(month_start - aws.clock.now()).total_seconds() + 3600)
    winner, loser, game, totals = play_a_ranked_game(players, "clubs")
    # (both sat down with the club's tag beside their names)
    assert [seat["club"]["tag"] for seat in game["seats"]] == ["KOD", "KOD"]
    month = month_of(aws.clock.now()).id

    # and the winner says so in the club's chat: the other reads it live
    said = winner.answer(winner.send("club_chat", clubId=club["clubId"], text="good game"))
    heard = loser.receive("club_chat")
    assert (said["type"], said["line"]["mine"]) == ("club_chat", True)
    assert (heard["clubId"], heard["line"]["text"], heard["line"]["mine"]) == (
        club["clubId"],
        "good game",
        False,
    )
    assert heard["line"]["club"]["tag"] == "KOD"

    # then the stream's results function scores the club: both members' main-board scores
    def scored() -> Any:
        rows = ok(stack, "GET", f"/club-board?period={month}", tokens["cleo"])["rows"]
        return next((r for r in rows if r["club"]["clubId"] == club["clubId"]), None)

    assert wait_until(lambda: (scored() or {}).get("score") == sum(totals.values()), timeout=15)
    row = scored()
    assert (row["place"], row["counted"]) == (1, 3)
    # and the month's main board shows the club's tag beside both names, also among "my clubs"
    for kind in ("all", "clubs"):
        board = ok(stack, "GET", f"/boards?columns=main&period={month}&kind={kind}", tokens["cleo"])
        assert {tag["tag"] for r in board["rows"] for tag in r["tags"]} == {"KOD"}, kind

    # given cleo with premium and a second club of her own, both from before the month
    players_store = DynamoPlayerRepository(item)
    cleo_id = _player_id(stack, tokens["cleo"])
    # (her second club: joined now, so only its membership matters here, not its points)
    players_store.grant_premium(cleo_id, aws.clock.now() + timedelta(days=3))
    dora_club = ok(stack, "POST", "/clubs", tokens["dora"], {"name": "Dora Den", "tag": "DD"})
    ok(stack, "POST", f"/clubs/{dora_club['club']['clubId']}/join", tokens["cleo"])
    assert [m["dormant"] for m in ok(stack, "GET", "/me/clubs", tokens["cleo"])["clubs"]] == [
        False,
        False,
    ]

    # when her premium has ended and the daily job runs as of then
    later = aws.clock.now() + timedelta(days=4)
    first = stack.run_job("ClubsJobsFunctionDaily", now=later)
    again = stack.run_job("ClubsJobsFunctionDaily", now=later)

    # then her second club is dormant (once), the first stays live
    assert (first["changed"], again["changed"]) == (1, 0)
    aws.advance(days=4)
    mine = ok(stack, "GET", "/me/clubs", tokens["cleo"])["clubs"]
    assert [(m["clubId"], m["dormant"]) for m in mine] == [
        (club["clubId"], False),
        (dora_club["club"]["clubId"], True),
    ]

    # when she renews, and signs in again
    players_store.grant_premium(cleo_id, aws.clock.now() + timedelta(days=30))
    renewed = ok(stack, "GET", "/me/clubs", tokens["cleo"])["clubs"]

    # then both memberships are live
    assert [m["dormant"] for m in renewed] == [False, False]


def club_of_three(stack: LocalStack, tokens: dict[str, str], nick: dict[str, str]) -> Any:
    """Ana's club by approval: ben asks to join with a message and ana accepts; cleo is invited
    and says yes (the invitation waited in her list). The club as founded."""
    club = ok(stack, "POST", "/clubs", tokens["ana"], {"name": "Kings Of Dice", "tag": "KOD",
                                                       "entry": "approval"})["club"]  # fmt: skip
    path = f"/clubs/{club['clubId']}"

    # when ben asks to join with a message and ana accepts; cleo is invited and says yes
    assert ok(stack, "POST", f"{path}/join", tokens["ben"], {"message": "hi"})["outcome"] == (
        "requested"
    )
    ok(stack, "POST", f"{path}/requests/{nick['ben']}", tokens["ana"], {"accept": True})
    ok(stack, "POST", f"{path}/invitations", tokens["ana"], {"nickname": nick["cleo"]})
    waiting = ok(stack, "GET", "/me/clubs", tokens["cleo"])["invitations"]
    assert [i["clubId"] for i in waiting] == [club["clubId"]]
    ok(stack, "POST", f"/me/clubs/invitations/{club['clubId']}", tokens["cleo"], {"accept": True})

    # then the club has three members
    view = ok(stack, "GET", path, tokens["ana"])
    assert sorted(m["nickname"] for m in view["members"]) == sorted(
        nick[w] for w in ("ana", "ben", "cleo")
    )

    return club


def _player_id(stack: LocalStack, token: str) -> str:
    return str(ok(stack, "GET", "/me", token)["playerId"])


def test_clubs_an_invitation_reaches_a_connected_player_at_once(
    stack: LocalStack, players: Any
) -> None:
    # given eve, connected, and fay's club
    eve = players("clubs-live-eve")
    fay = stack.player_token("clubs-live-fay")
    club = ok(stack, "POST", "/clubs", fay, {"name": "Live Wires", "tag": "LW"})["club"]
    # when fay invites her
    ok(stack, "POST", f"/clubs/{club['clubId']}/invitations", fay,
       {"nickname": local_nickname(eve.name)})  # fmt: skip
    # then eve's page hears it at once, with the club and who invited her
    told = eve.receive("club_invitation")
    assert (told["clubId"], told["name"], told["tag"]["tag"], told["by"]) == (
        club["clubId"],
        "Live Wires",
        "LW",
        local_nickname("clubs-live-fay"),
    )
