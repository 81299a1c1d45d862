"""A finished game's result as the table stores it (`GAME#<id>` / `RESULT`), read alone.

The game repository (yamb_service.game.dynamo) writes it and reads it through here; the functions
that only look a result up (the accounts' store: did a player play in that game?) import this
module instead of the repository, whose imports (the game session, the WebSocket protocol) their
cold start does not need (decisions.md 99)."""

from typing import TYPE_CHECKING

from pynamodb.exceptions import DoesNotExist

from yamb_service.common.dynamo import ItemModel, busy_when_transient

if TYPE_CHECKING:
    from yamb.session.results import GameResult

RESULT_SORT_KEY = "RESULT"


def result_key(game_id: str) -> tuple[str, str]:
    return f"GAME#{game_id}", RESULT_SORT_KEY


@busy_when_transient
def game_result(item: ItemModel, game_id: str) -> "GameResult | None":
    """The game's result, or None while it has none."""
    # Here, not at import: only a report or a link's check reads a result (the session's models
    # are about 15 ms of a cold start that most of these functions' first calls never use).
    from yamb.session.results import GameResult  # noqa: PLC0415

    try:
        stored = item.get(*result_key(game_id))
    except DoesNotExist:
        return None
    return GameResult.model_validate_json(stored.body or b"{}")
