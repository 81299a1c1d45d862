"""The web client's catalog (client/web/catalog.json) is the rules' own data."""

import json
from pathlib import Path

import pytest
from yamb.accounts.errors import AccountError
from yamb.accounts.preferences import check_country
from yamb.rules import GRIDS, PRESETS
from yamb.settings import validate_settings

from devstack.web_catalog import catalog, render

CATALOG = Path(__file__).resolve().parents[2] / "client" / "web" / "catalog.json"


def test_web_catalog_committed_file_matches_the_rules() -> None:
    # given the committed catalog
    committed = CATALOG.read_text(encoding="utf-8")

    # when the generator renders the rules as they are now
    # then both agree (python -m devstack.web_catalog > client/web/catalog.json brings it back)
    assert committed == render()


def test_web_catalog_every_offered_choice_is_accepted_by_the_server() -> None:
    # given what the catalog offers a creator
    data = json.loads(render())

    # when each grid, preset and turn type is sent as settings
    # then the server's validator accepts each, with the rows it scores
    for grid in data["grids"]:
        base = {"grid": grid["id"], "players": 2}
        if grid["columnTypes"]:
            base["preset"] = 1
        assert validate_settings(base).grid == grid["id"]
        assert [row["id"] for row in grid["rows"]] == [r.id for r in GRIDS[grid["id"]].rows]
    for number, columns in data["presets"].items():
        assert validate_settings({"preset": int(number)}).column_ids == tuple(columns)
        assert tuple(columns) == PRESETS[int(number)]
    for turn_type in data["turnTypes"]:
        extra = {"turnSeconds": None, "slowDeadlineHours": 24} if turn_type == "slow" else {}
        assert validate_settings({"preset": 1, "turnType": turn_type, **extra})
    hours = catalog()["slowDeadlineHours"]
    assert hours == {"min": 1, "max": 720}


def test_web_catalog_offers_every_country_the_settings_accept_and_no_other() -> None:
    # given the countries the catalog offers a player's settings
    offered = json.loads(render())["countries"]

    # then each is accepted by the settings' check, as it is sent (upper case)
    assert len(offered) > 200
    assert all(check_country(code) == code for code in offered)
    # and a code the settings refuse is not offered
    with pytest.raises(AccountError):
        check_country("XX")
    assert "XX" not in offered
