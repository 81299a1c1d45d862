"""The social tests' players (tests/integration/test_chats.py, test_invitations.py): four
callers with active accounts on the table, and what reached a connection by frame type."""

from datetime import UTC, datetime
from typing import Any

from yamb.accounts.preferences import Preferences
from yamb.accounts.profile import AccountStatus, Profile
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.edge.caller import Caller

ANA = Caller("ana", "conn-ana", nickname="Ana")
BEN = Caller("ben", "conn-ben", nickname="Ben")
CY = Caller("cy", "conn-cy", nickname="Cy")
DAN = Caller("dan", "conn-dan", nickname="Dan")


def make_people(harness: Any, item: Any) -> Any:
    accounts = DynamoAccountStore(item, harness.games.result)
    for caller in (ANA, BEN, CY, DAN):
        accounts.create(
            Profile(
                player_id=caller.player_id,
                nickname=caller.nickname or caller.player_id,
                email=f"{caller.player_id}@example.com",
                status=AccountStatus.ACTIVE,
                created_at=datetime(2025, 6, 1, tzinfo=UTC),
                preferences=Preferences(),
            )
        )
    return harness


def of_type(harness: Any, caller: Caller, kind: str) -> list[dict[str, Any]]:
    return [frame for frame in harness.frames(caller) if frame["type"] == kind]
