"""What a free account may play (rules.md 5, product E3), through the game service on moto:
presets 1 and 2, or a custom set of at most 3 columns of the types down, up and free; premium
(bought, given, or an operator's grant) unlocks every preset until it ends. The creator is
checked at create and edit, a joining player at join; a refusal changes nothing."""

from datetime import timedelta
from typing import Any

import pytest

from tests.integration.conftest import ANA, BEN, CLEO


@pytest.mark.parametrize(
    ("settings", "fields"),
    [
        ({"preset": 3}, ["account", "preset"]),
        ({"preset": 7}, ["account", "preset"]),
        ({"preset": None, "columns": ["down", "manual"]}, ["account", "columns"]),
        ({"preset": None, "columns": ["announced"]}, ["account", "columns"]),
    ],
)
def test_free_account_create_premium_columns_refused_and_nothing_created(
    harness: Any, settings: dict[str, Any], fields: list[str]
) -> None:
    # given ana, a free account
    harness.connect(ANA)

    # when she creates a table whose columns need premium
    request_id = harness.act(ANA, "create_game", settings={"players": 2, **settings})

    # then she is refused, the settings named, and no table exists
    error = harness.error(ANA, request_id)
    assert error["code"] == "invalid_settings"
    assert error["fields"] == fields
    assert "premium" in error["message"]
    listed = harness.answer(ANA, harness.act(ANA, "list_games"))
    assert listed["games"] == []


@pytest.mark.parametrize(
    "settings",
    [
        {"preset": 1},
        {"preset": 2},
        {"preset": None, "columns": ["down", "up", "free"]},
        {"preset": None, "columns": ["free"]},
        {"grid": "classic"},
    ],
)
def test_free_account_create_free_columns_and_family_grids_allowed(
    harness: Any, settings: dict[str, Any]
) -> None:
    # given ana, a free account
    harness.connect(ANA)

    # when she creates a table of presets 1 or 2, three free column types or a family grid
    request_id = harness.act(ANA, "create_game", settings={"players": 2, **settings})

    # then it is created
    assert harness.answer(ANA, request_id)["type"] == "game"


def test_free_account_with_premium_creates_every_preset_until_premium_ends(harness: Any) -> None:
    # given ana holds premium for one more day
    harness.connect(ANA)
    harness.grant_premium(ANA, days=1)

    # when she creates a preset 7 table now, and another once premium has ended
    now = harness.act(ANA, "create_game", settings={"players": 2, "preset": 7})
    harness.clock.advance(days=1, seconds=1)
    later = harness.act(ANA, "create_game", settings={"players": 2, "preset": 7})

    # then the first is created and the second refused: expiry takes nothing away, it only
    # stops new premium tables
    assert harness.answer(ANA, now)["type"] == "game"
    assert harness.error(ANA, later)["code"] == "invalid_settings"
    assert len(harness.answer(ANA, harness.act(ANA, "list_games"))["games"]) == 1


def test_free_account_join_premium_table_refused_and_seats_unchanged(harness: Any) -> None:
    # given ana's preset 5 table for three (she holds premium), ben free, cleo premium
    harness.connect(ANA, BEN, CLEO)
    harness.grant_premium(ANA, CLEO)
    game_id = harness.create_game(ANA, players=3, preset=5)
    version = harness.session(game_id).version

    # when ben joins
    refused = harness.act(BEN, "join_game", gameId=game_id)

    # then he is refused with premium_required, and nothing changed at the table
    assert harness.error(BEN, refused)["code"] == "premium_required"
    session = harness.session(game_id)
    assert [seat.player_id for seat in session.seats] == ["ana"]
    assert session.version == version

    # and cleo, with premium, sits down
    harness.ack(CLEO, harness.act(CLEO, "join_game", gameId=game_id))
    assert [seat.player_id for seat in harness.session(game_id).seats] == ["ana", "cleo"]


def test_free_account_join_free_table_of_a_premium_creator_allowed(harness: Any) -> None:
    # given ana (premium) creates a preset 2 table
    harness.connect(ANA, BEN)
    harness.grant_premium(ANA)
    game_id = harness.create_game(ANA, players=2, preset=2)

    # when ben, free, joins / then he sits down
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    assert len(harness.session(game_id).seats) == 2


def test_free_account_edit_into_premium_columns_refused_and_settings_kept(harness: Any) -> None:
    # given ana's preset 1 table (free)
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=2, preset=1)

    # when she edits it to preset 4
    request_id = harness.act(ANA, "edit_game", gameId=game_id, settings={"players": 2, "preset": 4})

    # then she is refused, naming the setting, and the table keeps preset 1
    error = harness.error(ANA, request_id)
    assert (error["code"], error["fields"]) == ("invalid_settings", ["account", "preset"])
    assert harness.session(game_id).settings.preset == 1

    # and with premium the same edit applies
    harness.grant_premium(ANA)
    harness.ack(ANA, harness.act(ANA, "edit_game", gameId=game_id, settings={"preset": 4}))
    assert harness.session(game_id).settings.preset == 4


def test_free_account_premium_granted_and_expired_reads_the_moment(harness: Any) -> None:
    # given ben's premium that ended a second ago
    harness.connect(ANA, BEN)
    harness.players.grant_premium("ben", harness.clock.moment - timedelta(seconds=1))
    harness.grant_premium(ANA)
    game_id = harness.create_game(ANA, players=2, preset=6)

    # when he joins a preset 6 table / then he is a free account again
    refused = harness.act(BEN, "join_game", gameId=game_id)
    assert harness.error(BEN, refused)["code"] == "premium_required"


def test_free_account_seated_blocks_an_edit_into_premium_columns(harness: Any) -> None:
    # given ana (premium) at a preset 1 table where ben, free, sits
    harness.connect(ANA, BEN)
    harness.grant_premium(ANA)
    game_id = harness.create_game(ANA, players=2, preset=1)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))

    # when ana edits it to preset 7
    request_id = harness.act(ANA, "edit_game", gameId=game_id, settings={"preset": 7})

    # then she is refused, naming ben's free account, and the table keeps preset 1
    error = harness.error(ANA, request_id)
    assert error["code"] == "premium_required"
    assert "ben" in error["message"].lower()
    assert harness.session(game_id).settings.preset == 1
