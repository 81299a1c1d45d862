"""Generates client/web/catalog.json: what the game's rules offer, for the web client's forms
and sheets (grids and their rows, column types, presets, the settings' limits), and the
country codes an account's settings accept (A4).

    python -m devstack.web_catalog > client/web/catalog.json

It is data the server already decides by (yamb.rules, yamb.settings); tests/unit/test_web_catalog.py
fails when the committed file and the rules disagree, so the client cannot drift from them.
"""

import json
import sys
from typing import Any, get_args

import annotated_types
from iso3166 import countries_by_alpha2
from yamb import settings as game_settings
from yamb.rules import COLUMN_TYPES, GRIDS, PRESETS


def _bounds(metadata: list[Any]) -> dict[str, int]:
    bounds: dict[str, int] = {}
    for constraint in metadata:
        if isinstance(constraint, annotated_types.Ge):
            bounds["min"] = int(constraint.ge)  # type: ignore[call-overload]
        if isinstance(constraint, annotated_types.Le):
            bounds["max"] = int(constraint.le)  # type: ignore[call-overload]
    return bounds


def catalog() -> dict[str, Any]:
    fields = game_settings.GameSettings.model_fields
    return {
        "grids": [
            {
                "id": grid.id,
                "rows": [{"id": row.id, "section": row.section} for row in grid.rows],
                "upperBonus": None
                if grid.upper_bonus is None
                else {"threshold": grid.upper_bonus.threshold, "amount": grid.upper_bonus.amount},
                "columnTypes": grid.has_column_types,
                "diceCounts": list(grid.dice_counts),
            }
            for grid in GRIDS.values()
        ],
        "columnTypes": [
            {
                "id": column.id,
                "rank": column.rank,
                "announceByRoll": column.announce_by_roll,
                "directed": column.directed,
                "firstRollOnly": column.first_roll_only,
            }
            for column in COLUMN_TYPES.values()
        ],
        "presets": {str(number): list(columns) for number, columns in PRESETS.items()},
        "turnTypes": list(get_args(game_settings.TurnType.__value__)),
        "turnSeconds": {
            "min": game_settings.MIN_TURN_SECONDS,
            "max": game_settings.MAX_TURN_SECONDS,
            "default": fields["turn_seconds"].default,
        },
        "slowDeadlineHours": _bounds(fields["slow_deadline_hours"].metadata),
        "freeAccount": {
            "presets": sorted(game_settings.FREE_PRESETS),
            "maxColumns": game_settings.FREE_MAX_COLUMNS,
            "maxColumnRank": game_settings.FREE_MAX_COLUMN_RANK,
        },
        # What yamb.accounts.preferences.check_country accepts; the page names them (Intl).
        "countries": sorted(countries_by_alpha2),
    }


def render() -> str:
    return json.dumps(catalog(), separators=(",", ":")) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
