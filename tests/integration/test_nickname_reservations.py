"""Nickname reservations on the table (moto): one per UTS 39 skeleton, taken in the same
transaction as the profile, and the reservations made before skeletons (legacy keys) still
renamed, purged and migrated."""

from datetime import UTC, datetime
from typing import Any

import pytest
from yamb.accounts.nicknames import legacy_nickname_key
from yamb.accounts.profile import AccountStatus, Profile
from yamb_service.accounts.dynamo import DynamoAccountStore, migrate_nicknames
from yamb_service.accounts.ports import NicknameTakenError

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def _profile(player_id: str, nickname: str) -> Profile:
    return Profile(
        player_id=player_id,
        nickname=nickname,
        email=f"{player_id}@example.com",
        status=AccountStatus.ACTIVE,
        created_at=NOW,
    )


@pytest.fixture
def store(table: str, item: Any) -> DynamoAccountStore:
    return DynamoAccountStore(item, lambda _game_id: None)


def _legacy_account(item: Any, player_id: str, nickname: str) -> Profile:
    """An account as the code before skeletons wrote it: the reservation under NFKC+casefold."""
    profile = _profile(player_id, nickname).model_copy(update={"version": 1})
    item(f"PLAYER#{player_id}", "PROFILE", version=1, profile=profile.model_dump_json()).save()
    item(f"NICK#{legacy_nickname_key(nickname)}", "NICK", player_id=player_id).save()
    return profile


@pytest.mark.parametrize("look_alike", ["\u0430na", "an\u0430", "\u0391na", "ANA"])
def test_reservation_refuses_a_look_alike_of_a_taken_name(
    store: DynamoAccountStore, look_alike: str
) -> None:
    # given "ana" registered
    store.create(_profile("p-ana", "ana"))

    # when another account registers the name in look-alike letters
    with pytest.raises(NicknameTakenError):
        store.create(_profile("p-other", look_alike))

    # then nothing of it was written, and the name's owner is ana whatever the spelling
    assert store.get("p-other") is None
    assert store.nickname_owner(look_alike) == "p-ana"


def test_rename_of_a_legacy_reservation_moves_it(store: DynamoAccountStore, item: Any) -> None:
    # given an account reserved before skeletons under a name whose skeleton differs ("Max")
    profile = _legacy_account(item, "p-max", "Max")

    # when it is renamed
    renamed = store.rename(profile.model_copy(update={"nickname": "Maxine"}), "Max")

    # then the new name is reserved under its skeleton and the legacy reservation is gone
    assert renamed.version == 2
    assert store.nickname_owner("Maxine") == "p-max"
    assert store.nickname_owner("Max") is None
    assert item.count(f"NICK#{legacy_nickname_key('Max')}") == 0


def test_owner_of_a_legacy_reservation_is_found_by_its_name(
    store: DynamoAccountStore, item: Any
) -> None:
    # given an account reserved before skeletons under a name whose skeleton differs ("Max")
    _legacy_account(item, "p-max", "Max")

    # when its name is looked up (a gift, a public page, a sign-up's check) / then it is found
    assert store.nickname_owner("Max") == "p-max"
    assert store.nickname_owner("Maxi") is None


def test_purge_releases_a_legacy_reservation(store: DynamoAccountStore, item: Any) -> None:
    # given an account reserved before skeletons
    profile = _legacy_account(item, "p-tom", "Tom")

    # when it is purged, then its legacy reservation is released with it
    store.purge(profile.model_copy(update={"nickname": "#ptom"}), release="Tom")
    assert item.count(f"NICK#{legacy_nickname_key('Tom')}") == 0


def test_migration_moves_legacy_reservations_and_reports_clashes(
    store: DynamoAccountStore, item: Any
) -> None:
    # given accounts of before skeletons: two look-alike names ("Max" and "rnax": the second's
    # legacy key is the skeleton of both), one whose key was already its skeleton ("ana"), one
    # whose skeleton differs and is free ("Jo0", a zero)
    _legacy_account(item, "p-max", "Max")
    _legacy_account(item, "p-rnax", "rnax")
    _legacy_account(item, "p-ana", "ana")
    _legacy_account(item, "p-jo", "Jo0")

    # when the migration runs (twice: it is safe again)
    first = migrate_nicknames(item)
    again = migrate_nicknames(item)

    # then "Jo0" moved to its skeleton (a new "joo" is refused), "Max" is a clash left under its
    # legacy key for an operator, the others were current; the second run moves nothing
    assert first["moved"] == ["p-jo"] and first["clash"] == ["p-max"]
    assert sorted(first["current"]) == ["p-ana", "p-rnax"]
    assert again["moved"] == [] and again["clash"] == ["p-max"]
    assert item.count(f"NICK#{legacy_nickname_key('Jo0')}") == 0
    with pytest.raises(NicknameTakenError):
        store.create(_profile("p-new", "joo"))
    with pytest.raises(NicknameTakenError):
        store.create(_profile("p-new", "\u0430na"))
