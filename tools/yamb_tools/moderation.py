"""The operators' command for reports (S5, docs/social.md): make a player an operator, list
the cases waiting for review, act on one. The queue and the actions go through the HTTP API
with an operator's token, as the web client's #/moderation does; granting the operator flag
writes the profile on the table (an operator of the account's AWS does it).

    python -m yamb_tools.moderation --local grant ana         # the running local stack
    python -m yamb_tools.moderation --local --as ana list
    python -m yamb_tools.moderation --local --as ana act player:<id> hide --note "spam"
    python -m yamb_tools.moderation --api https://... --token $TOKEN list
    python -m yamb_tools.moderation --table yamb-GameTable grant ana   # deployed (AWS creds)
"""

import argparse
import json
import sys
import urllib.error
import urllib.request
from typing import Any


def _local_state() -> dict[str, Any]:
    from devstack.stack import read_state  # noqa: PLC0415 - the local stack's tools only

    return read_state()


def grant(nickname: str, table: str, region: str, endpoint: str | None, on: bool) -> str:
    from yamb_service.accounts.dynamo import DynamoAccountStore  # noqa: PLC0415
    from yamb_service.common.dynamo import item_model  # noqa: PLC0415
    from yamb_service.game.result_dynamo import game_result  # noqa: PLC0415

    item = item_model(table, region, endpoint)
    store = DynamoAccountStore(item, lambda game_id: game_result(item, game_id))
    owner = store.nickname_owner(nickname)
    profile = store.get(owner) if owner else None
    if profile is None:
        raise SystemExit(f"no player is called {nickname}")
    store.save(profile.model_copy(update={"operator": on}))
    return f"{profile.nickname} is {'now' if on else 'no longer'} an operator"


def call(api: str, token: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        api.rstrip("/") + path,
        data=data,
        method=method,
        headers={"Authorization": token, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{error.code}: {error.read().decode()}") from None


def describe(case: dict[str, Any]) -> str:
    target = case["target"]
    lines = [
        f"{case['caseId']}  [{case['status']}]  {target['kind']} of {target['authorNickname']}"
        f"  ({case['reporters']} reporters, since {case['openedAt']})",
        f"    content: {case['content']}",
    ]
    lines += [
        f"    - {r['reporterNickname']}: {r['reason']}" + (f" ({r['note']})" if r["note"] else "")
        for r in case["reports"]
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--local", action="store_true", help="the running local stack")
    parser.add_argument("--as", dest="operator", help="the local operator's name (--local)")
    parser.add_argument("--api", help="the HTTP API's address")
    parser.add_argument("--token", help="an operator's ID token")
    parser.add_argument("--table", help="the game table (grant, deployed)")
    parser.add_argument("--region", default="us-east-1")
    commands = parser.add_subparsers(dest="command", required=True)
    granting = commands.add_parser("grant", help="make a player an operator")
    granting.add_argument("nickname")
    granting.add_argument("--revoke", action="store_true")
    commands.add_parser("list", help="the cases waiting for review, oldest first")
    acting = commands.add_parser("act", help="dismiss, hide, warn or ban a case")
    acting.add_argument("case_id")
    acting.add_argument("action", choices=["dismiss", "hide", "warn", "ban"])
    acting.add_argument("--note", default="")
    options = parser.parse_args(argv)

    state = _local_state() if options.local else {}
    if options.command == "grant":
        table = options.table or state.get("tableName")
        if not table:
            parser.error("grant needs --table (or --local)")
        print(
            grant(
                options.nickname, table, options.region, state.get("endpoint"), not options.revoke
            )
        )
        return 0
    api = options.api or state.get("httpApiUrl")
    token = options.token
    if options.local and options.operator:
        from devstack.stack import local_token  # noqa: PLC0415

        token = local_token(options.operator)
    if not api or not token:
        parser.error("the queue needs --api and --token (or --local --as <name>)")
    if options.command == "list":
        cases = call(api, token, "GET", "/moderation/cases")["cases"]
        print("\n".join(describe(case) for case in cases) or "no case waits for review")
        return 0
    done = call(
        api,
        token,
        "POST",
        f"/moderation/cases/{options.case_id}",
        {"action": options.action, "note": options.note},
    )
    print(f"{done['caseId']}: {done['status']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
