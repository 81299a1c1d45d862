"""End to end over real WebSockets: a whole two-player game of announcements and directed moves
(rules.md 3 and 4), every turn played by the players themselves."""

from collections import Counter
from typing import Any

from devstack.stack import LocalStack

ANNOUNCED_AND_DIRECTED = {
    "players": 2,
    "columns": ["announced", "directed"],
    "turnSeconds": None,
}
CELLS_PER_SHEET = 13 * 2


def _cells(game: dict[str, Any]) -> list[tuple[str, str]]:
    return [(cell["column"], cell["row"]) for cell in game["turn"]["legal"]]


def _sheet(game: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(sheet for sheet in game["sheets"] if sheet["playerId"] == player_id)


def _keep_most_common(dice: list[int]) -> list[int]:
    face, _ = Counter(dice).most_common(1)[0]
    return [position for position, value in enumerate(dice) if value == face]


def _maybe_roll(player: Any, game: dict[str, Any], number: int) -> dict[str, Any]:
    """Every other turn, one more roll keeping the most common face; the legal cells stay."""
    if number % 2 or not game["turn"]["canRoll"]:
        return game
    legal = _cells(game)
    keep = _keep_most_common(game["turn"]["dice"])
    rolled = player.act("roll", gameId=game["gameId"], keep=keep)
    assert rolled["turn"]["roll"] == game["turn"]["roll"] + 1
    assert _cells(rolled) == legal
    return rolled


def _announcement(game: dict[str, Any], opponent: str) -> str:
    """A legal announced row, preferring one that opens the opponent's directed cell, then the
    best score: so that both players get directed."""
    opponent_directed = _sheet(game, opponent)["cells"].get("directed", {})
    candidates = [cell for cell in game["turn"]["legal"] if cell["column"] == "announced"]
    best = max(candidates, key=lambda c: (c["row"] not in opponent_directed, c["score"]))
    return str(best["row"])


def _play_turn(mover: Any, opponent: Any, game: dict[str, Any], number: int) -> tuple[str, Any]:
    """One whole turn of the player in turn; what kind of move it was, and the game after it:
    the directed row when directed, else an announcement after roll 1, else (only unopened
    directed cells left) any of those."""
    game_id, turn = game["gameId"], game["turn"]
    assert turn["roll"] == 1
    directed_row = turn.get("directedRow")
    if directed_row is not None:
        # the directed cell is the only legal one
        assert _cells(game) == [("directed", directed_row)]
        kind, cell = "directed", ("directed", directed_row)
    elif any(column == "announced" for column, _ in _cells(game)):
        row = _announcement(game, opponent.player_id)
        game = mover.act("announce", gameId=game_id, column="announced", row=row)
        # the announcement is the only legal cell, and the opponent is told
        assert _cells(game) == [("announced", row)]
        assert game["turn"]["announcement"]["row"] == row
        seen = opponent.game_at(game["version"])["turn"]
        assert seen["playerId"] == mover.player_id
        assert (seen["announcement"]["column"], seen["announcement"]["row"]) == ("announced", row)
        kind, cell = "announced", ("announced", row)
    else:
        # no direction can open the directed cells left: every one is free
        assert {column for column, _ in _cells(game)} == {"directed"}
        kind, cell = "free", _cells(game)[0]
    if kind != "free":
        game = _maybe_roll(mover, game, number)
    column, row = cell
    game = mover.act("write", gameId=game_id, column=column, row=row)
    assert row in _sheet(game, mover.player_id)["cells"][column]
    return kind, game


def test_two_player_game_with_announcements_and_directions_plays_to_the_end(
    stack: LocalStack, players: Any
) -> None:
    # given two players at a table with the Announced and Directed columns (premium's: both
    # hold it) and no turn clock
    stack.grant_premium("ana-directed")
    stack.grant_premium("ben-directed")
    ana, ben = players("ana-directed"), players("ben-directed")
    game_id = ana.act("create_game", settings=ANNOUNCED_AND_DIRECTED)["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana.player_id = game["creator"]
    ben.player_id = next(s["playerId"] for s in game["seats"] if s["playerId"] != ana.player_id)
    opponents = {ana.player_id: (ana, ben), ben.player_id: (ben, ana)}
    moves: Counter[tuple[str, str]] = Counter()

    # when both play every turn to the end
    while game["status"] == "running":
        mover, opponent = opponents[game["turn"]["playerId"]]
        turns = sum(n for (player, _), n in moves.items() if player == mover.player_id)
        kind, game = _play_turn(mover, opponent, game, turns)
        moves[mover.player_id, kind] += 1
        assert moves.total() <= 2 * CELLS_PER_SHEET

    # then the game is over with both sheets full and the best total winning
    assert game["status"] == "finished"
    assert game["outcome"] == "completed"
    for sheet in game["sheets"]:
        assert sum(len(cells) for cells in sheet["cells"].values()) == CELLS_PER_SHEET
    totals = {sheet["playerId"]: sheet["total"] for sheet in game["sheets"]}
    best = max(totals.values())
    assert sorted(game["winners"]) == sorted(p for p, total in totals.items() if total == best)
    assert opponent.game_at(game["version"])["status"] == "finished"
    # and each player announced all 13 announced rows and was directed at least once
    for player in (ana, ben):
        assert moves[player.player_id, "announced"] == 13
        assert moves[player.player_id, "directed"] > 0
        assert sum(n for (p, _), n in moves.items() if p == player.player_id) == CELLS_PER_SHEET
