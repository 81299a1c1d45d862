"""The open game database (issue 32): which games, the line model (no personal data beyond the
nickname), the months, the files, and `yamb verify --game` (docs/competition.md)."""

import gzip
import json
import random
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from yamb.opendb import files
from yamb.opendb.errors import OpenDbError
from yamb.opendb.lines import GameLine, SeatLine, StagedGame, export_line, staged_of
from yamb.opendb.months import month_of, parse_month, previous_month, require_over
from yamb.opendb.views import is_file_name, month_file_name
from yamb.session.model import GameSession
from yamb_tools.cli import main, verify_game_line

from testkit.opendb import SEED, finished_game


def _players(count: int) -> list[str]:
    return [str(uuid.UUID(int=random.Random(n).getrandbits(128))) for n in range(count)]


def _finished(
    game_id: str = "game-1", *, players: int = 2, seeded: bool = False, **settings: Any
) -> GameSession:
    names = ["Ana", *(f"Player{n}" for n in range(1, players))]
    return finished_game(game_id, _players(players), nicknames=names, seeded=seeded, **settings)


def _line(session: GameSession) -> GameLine:
    staged = staged_of(session, [])
    assert staged is not None
    names = {seat.player_id: seat.nickname or "" for seat in session.seats}
    return export_line(staged, names)


# ------------------------------------------------------------------------------ which games


def test_a_finished_game_between_two_is_published_with_its_rules_seats_dice_and_moves() -> None:
    # given a yacht game of two played to its end
    session = _finished()
    # when it is staged and its line made
    line = _line(session)
    # then the line holds the rules, the dates, the seats by nickname, and a whole record
    assert line.id == "game-1" and line.rules.grid == "yacht" and line.play == "individual"
    assert [seat.nickname for seat in line.seats] == ["Ana", "Player1"]
    assert line.ended_at == session.ended_at and line.outcome == "completed"
    assert len(line.dice["turns"]) == len(line.moves) == session.turn
    assert line.dice["seed"] == SEED and line.dice["gameId"] == "game-1"
    assert all(move.startswith("|w") for move in line.moves)
    assert [seat.total for seat in line.seats] == [sheet.total() for sheet in session.game().sheets]
    # and it verifies as `yamb verify --game` checks it
    assert verify_game_line(json.loads(line.model_dump_json(by_alias=True)))["ok"] is True


@pytest.mark.parametrize(
    ("why", "settings", "change"),
    [
        ("solo practice", {"players": 1}, None),
        ("cancelled", {}, "cancelled"),
        ("still running", {}, "running"),
    ],
)
def test_a_game_that_is_not_public_is_not_staged(
    why: str, settings: dict[str, Any], change: str | None
) -> None:
    # given a game that is solo, cancelled or not over
    session = _finished(**settings)
    if change == "cancelled":
        session.outcome = "cancelled"
    elif change == "running":
        session.status = "running"
    # when it is staged / then nothing is
    assert staged_of(session, []) is None, why


def test_a_record_that_lost_a_chunk_is_not_staged() -> None:
    # given a finished game whose record misses its first turns (an expired chunk)
    session = _finished()
    assert session.fair is not None
    session.fair.turns = session.fair.turns[3:]
    # when it is staged / then it is not: a partial record proves nothing
    assert staged_of(session, []) is None


# ------------------------------------------------------------------------------ personal data


def test_a_line_holds_no_personal_data_beyond_the_nickname() -> None:
    # given a finished game whose session holds everything a game keeps of its players:
    # account ids, connections, fair-play timings (the e-mails and the chat are not in the
    # game item: tests/integration/test_opendb_job.py puts them beside it)
    session = _finished(players=3)
    staged = staged_of(session, [])
    assert staged is not None
    # when the line is made with the nicknames the accounts bear now
    line = export_line(staged, {s.player_id: f"nick-{n}" for n, s in enumerate(session.seats)})
    text = line.model_dump_json(by_alias=True)
    # then no account id, connection, e-mail or chat is in it, only the nicknames
    for seat in session.seats:
        assert seat.player_id not in text
        assert seat.connection_id is None or seat.connection_id not in text
    assert "@" not in text and "conn-" not in text
    assert [seat.nickname for seat in line.seats] == ["nick-0", "nick-1", "nick-2"]
    # and the model has no field that could hold more (a new field fails here first)
    assert set(GameLine.model_fields) == {
        "format", "id", "rules", "play", "created_at", "ended_at", "outcome", "tournament",
        "seats", "dice", "moves",
    }  # fmt: skip
    assert set(SeatLine.model_fields) == {"nickname", "bot", "total", "full", "left", "winner"}
    assert set(line.dice) == {
        "gameId", "scheme", "diceCount", "sameDice", "seed", "commitment", "clientSeeds",
        "commitments", "deal", "turns",
    }  # fmt: skip


def test_a_players_own_seed_is_the_one_place_their_id_appears() -> None:
    # given a game where the first player set a seed of their own: the dice scheme mixes
    # `player=seed` into the key, so a verifier needs that id (docs/dice.md)
    session = _finished(seeded=True)
    seeder, other = (seat.player_id for seat in session.seats)
    # when the line is made
    line = _line(session)
    text = line.model_dump_json(by_alias=True)
    # then the seeder's id is there twice, as the key of their seed and of its commitment
    # (yamb-dice/3: a verifier checks one against the other), and the other's nowhere
    assert line.dice["clientSeeds"] == {seeder: "my-own-seed"}
    assert set(line.dice["commitments"]) == {seeder}
    assert text.count(seeder) == 2 and other not in text
    assert verify_game_line(json.loads(text))["ok"] is True


def test_the_staged_game_keeps_ids_not_nicknames() -> None:
    # given a finished game: what the table keeps until the export must hold no nickname
    # (a purged account's would stay: tests/e2e/test_privacy_e2e.py scans the table)
    session = _finished()
    staged = staged_of(session, [])
    assert staged is not None
    text = staged.model_dump_json(by_alias=True)
    assert "Ana" not in text and "Player1" not in text
    assert StagedGame.model_validate_json(text) == staged


# ------------------------------------------------------------------------------ months


def test_months_are_utc_and_the_previous_one_wraps_the_year() -> None:
    assert month_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == "2026-12"
    assert previous_month(datetime(2027, 1, 1, 0, 10, tzinfo=UTC)) == "2026-12"
    assert previous_month(datetime(2026, 12, 1, tzinfo=UTC)) == "2026-11"
    with pytest.raises(OpenDbError) as refused:
        parse_month("2026-13")
    assert refused.value.code == "unknown_month"


def test_a_month_not_over_is_refused() -> None:
    # given the last second of November / then November is not over, and December 1 it is
    with pytest.raises(OpenDbError) as refused:
        require_over("2026-11", datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC))
    assert refused.value.code == "month_not_over"
    require_over("2026-11", datetime(2026, 12, 1, tzinfo=UTC))


# ------------------------------------------------------------------------------ files


def test_a_month_file_is_the_same_bytes_whatever_the_order_of_its_games() -> None:
    # given two games
    lines = [_line(_finished("game-a")), _line(_finished("game-b"))]
    # when the file is made from them in both orders
    first, second = files.month_file(lines), files.month_file(lines[::-1])
    # then the bytes are the same (no time in the gzip header), one line per game
    assert first == second and first[4:8] == b"\0\0\0\0"
    assert len(gzip.decompress(first).splitlines()) == 2


def test_only_the_database_files_are_served() -> None:
    assert is_file_name(month_file_name("2026-11")) and is_file_name("manifest.json")
    assert not is_file_name("yamb_games_../x.jsonl.gz") and not is_file_name("secret.txt")
    assert not is_file_name("yamb_games_2026_11.jsonl.gz")


# ------------------------------------------------------------------------------ yamb verify


def test_yamb_verify_game_checks_every_game_of_a_month_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a month's file of two games, and a copy with one die changed
    lines = [_line(_finished("game-a")), _line(_finished("game-b", seeded=True))]
    good = tmp_path / "yamb_games_2026-11.jsonl.gz"
    good.write_bytes(files.month_file(lines))
    rows = [json.loads(text) for text in gzip.decompress(good.read_bytes()).splitlines()]
    first = rows[0]["dice"]["turns"][0]
    face = first.split(":")[2][0]
    changed = first.replace(first.split(":")[2], str(int(face) % 6 + 1) + first.split(":")[2][1:])
    rows[0]["dice"]["turns"][0] = changed
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("".join(json.dumps(row) + "\n" for row in rows))
    # when `yamb verify --game` runs on each
    assert main(["verify", "--game", str(good)]) == 0
    verdicts = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert main(["verify", "--game", str(bad)]) == 2
    tampered = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    # then both games of the file verify, and the changed die is caught, the other game not
    assert [(v["id"], v["ok"]) for v in verdicts] == [("game-a", True), ("game-b", True)]
    assert tampered[0]["ok"] is False and tampered[0]["mismatch"]["turn"] == 1
    assert tampered[1]["ok"] is True


def test_yamb_verify_game_refuses_a_record_of_another_game_or_missing_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = json.loads(_line(_finished()).model_dump_json(by_alias=True))
    swapped = {**row, "id": "game-2"}
    short = {**row, "moves": row["moves"][1:]}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(swapped) + "\n" + json.dumps(short) + "\nnot json\n")
    assert main(["verify", "--game", str(path)]) == 2
    said = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert said[0]["error"] == "the dice record is another game's"
    assert said[1]["error"] == "the moves do not match the turns"
    assert said[2]["ok"] is False and "not JSON" in said[2]["error"]
