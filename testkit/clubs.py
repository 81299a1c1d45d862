"""A club founded over the local stack's HTTP API, for the tests and the screenshots that need
one to show (the club's page)."""

import json
import urllib.request

from devstack.stack import LocalStack


def founded_club(stack: LocalStack, player: str, name: str) -> str:
    """A club of `player`'s, founded over the HTTP API (for the club's page); its id."""
    request = urllib.request.Request(
        f"{stack.gateway.http_url}/clubs",
        data=json.dumps({"name": name, "tag": "YB", "description": "Friday evenings."}).encode(),
        method="POST",
        headers={
            "Authorization": f"Bearer {stack.player_token(player)}",
            "Content-Type": "application/json",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(json.loads(answer.read())["club"]["clubId"])
