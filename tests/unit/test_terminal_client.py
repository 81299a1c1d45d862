"""The terminal client's pure parts: frames rendered as text, typed lines parsed into actions."""

import base64
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from yamb.dice import SeededDice
from yamb.protocol import (
    CLIENT_ACTIONS,
    Ack,
    DisconnectedFrame,
    ErrorFrame,
    GameDeletedFrame,
    GameFrame,
    GameListFrame,
    GameSummary,
    LegalCellView,
    RematchFrame,
    TurnView,
    encode,
)
from yamb.session import leaving, lobby, presence, turns
from yamb.session.model import GameSession
from yamb.session.views import game_view
from yamb.settings import validate_settings
from yamb_client.cli import main
from yamb_client.commands import (
    HELP,
    BadInput,
    CommandContext,
    LocalCommand,
    NoInput,
    SendAction,
    parse_command,
)
from yamb_client.render import render_clock, render_frame, render_game
from yamb_client.session import connection_url, player_id_of

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ANA, BEN = "ana-0000-1111-2222-333333333333", "ben-4444-5555-6666-777777777777"
GAME_ID = "g1"
LEGAL = (
    LegalCellView(column="down", row="ones", score=3),
    LegalCellView(column="up", row="yamb", score=0),
    LegalCellView(column="free", row="yamb", score=50),
)
PLAYING = CommandContext(game_id=GAME_ID, legal=LEGAL, dice_count=5)


# ------------------------------------------------------------------------------- builders


def _session(players: int = 1, preset: int = 1, seconds: int | None = None) -> GameSession:
    settings = validate_settings({"players": players, "preset": preset, "turnSeconds": seconds})
    session = lobby.create(GAME_ID, ANA, "c-ana", settings, NOW, server_seed="00" * 32)
    if players > 1:
        lobby.join(session, BEN, "c-ben")
    return session


def _started(players: int = 1, preset: int = 1, seconds: int | None = None) -> GameSession:
    session = _session(players, preset, seconds)
    lobby.start(session, ANA, NOW, SeededDice("render"))
    return session


def _view(session: GameSession) -> dict[str, Any]:
    return game_view(session).model_dump(by_alias=True, mode="json")


def _turn(**fields: Any) -> TurnView:
    defaults: dict[str, Any] = {
        "number": 1,
        "player_id": ANA,
        "roll": 1,
        "dice": [1, 2, 3, 4, 5],
        "legal": list(LEGAL),
        "can_roll": True,
    }
    return TurnView(**(defaults | fields))


def _sheet_row(text: str, label: str) -> list[str]:
    """The values on the sheet line whose label is `label` (e.g. "ones", "== total")."""
    line = next(line for line in text.splitlines() if re.match(rf"{re.escape(label)}\s", line))
    return line[len(label) :].split()


def _token(claims: dict[str, Any]) -> str:
    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'RS256'})}.{part(claims)}.signature"


# ------------------------------------------------------------------------------- render: game


def test_render_game_given_a_started_solo_game_then_shows_dice_positions_and_numbered_cells() -> (
    None
):
    # given a solo game just started: roll 1 made by the server
    session = _started()
    view = _view(session)
    turn = view["turn"]
    # when it is rendered for its player
    text = render_game(view, me=ANA, now=NOW)
    # then the dice with their positions, every legal cell numbered with its score, the clock
    assert "Turn 1: your turn, roll 1 of 3" in text
    assert "dice:     " + "  ".join(map(str, turn["dice"])) in text
    assert "position: 1  2  3  4  5" in text
    for number, cell in enumerate(turn["legal"], start=1):
        assert re.search(
            rf"{number}\. {cell['column']}/{cell['row']}\s+{cell['score']}$", text, re.M
        )
    assert "can roll: yes (roll [positions to keep]" in text
    assert "clock: unlimited" in text
    assert "Seats: you (here)" in text


def test_render_game_given_a_written_cell_then_the_sheet_shows_it_and_the_column_totals() -> None:
    # given a solo game where the first legal cell was written
    session = _started()
    cell = game_view(session).turn.legal[0]  # type: ignore[union-attr]
    turns.write(session, ANA, cell.column, cell.row, None, now=NOW, dice=SeededDice("next"))
    # when it is rendered
    text = render_game(_view(session), me=ANA, now=NOW)
    # then the cell holds its score in its column, and the totals lines add it up
    header = next(line.split() for line in text.splitlines() if line.split() == ["down", "up"])
    position = header.index(cell.column)
    assert _sheet_row(text, cell.row)[position] == str(cell.score)
    assert _sheet_row(text, "== total")[position] == str(cell.score)
    assert _sheet_row(text, "-- upper" if cell.row == "ones" else "-- lower")[position] == str(
        cell.score
    )
    assert f"Sheet of you: total {cell.score}" in text
    assert "Turn 2: your turn" in text


def test_render_game_given_a_waiting_table_then_says_who_starts_it() -> None:
    # given a two-seat table with one player
    session = lobby.create(
        GAME_ID,
        ANA,
        "c",
        validate_settings({"players": 2, "preset": 3}),
        NOW,
        server_seed="00" * 32,
    )
    # when it is rendered for someone else
    text = render_game(_view(session), me=BEN, now=NOW)
    # then the status, the settings and the missing seat are shown, without a turn
    assert "== Game g1 (waiting, version 0), created by ana-0000" in text
    assert "yamb: down up free announced; 5 dice; 2 players" in text
    assert "time per turn 60 s" in text
    assert "1 of 2 seats taken" in text
    assert "Turn" not in text


def test_render_game_given_an_away_player_then_shows_the_seat_countdown_and_frozen_clock() -> None:
    # given a timed two-player game whose player in turn lost their connection
    session = _started(players=2, seconds=60)
    presence.disconnect(session, ANA, "c-ana", NOW + timedelta(seconds=20))
    # when it is rendered for the other player 30 s later
    text = render_game(_view(session), me=BEN, now=NOW + timedelta(seconds=50))
    # then the seat is kept for the rest of its 3 minutes, and the turn clock is frozen
    assert "ana-0000 (away, seat kept for 2:30)" in text
    assert "you (here)" in text
    assert "Turn 1: ana-0000's turn, roll 1 of 3" in text
    assert "clock: frozen with 40 s left" in text


def test_render_game_given_a_resigned_game_then_shows_the_outcome_and_no_winner() -> None:
    # given a two-player game that ana resigned at once and ben declined to finish alone
    session = _started(players=2)
    leaving.resign(session, ANA, NOW, SeededDice("x"))
    leaving.answer_finish_offer(session, BEN, False, NOW, SeededDice("x"))
    # when it is rendered
    text = render_game(_view(session), me=BEN, now=NOW)
    # then the game is over, cancelled (too few turns played), and the leaver is shown as left
    assert "Game over (cancelled). Winners: none" in text
    assert "ana-0000 (left)" in text
    assert "Turn " not in text


def test_render_game_given_a_finished_game_then_shows_the_winners() -> None:
    # given a finished game that ben won
    view = game_view(_started(players=2)).model_copy(
        update={"status": "finished", "turn": None, "winners": [BEN], "outcome": "completed"}
    )
    # when it is rendered for each player; then
    assert "Game over (completed). Winners: you" in render_game(view, me=BEN, now=NOW)
    assert "Game over (completed). Winners: ben-4444" in render_game(view, me=ANA, now=NOW)


def test_render_turn_given_an_announcement_a_directed_row_and_a_pending_choice_then_shows_them():
    # given a turn view with every optional part
    announced = LegalCellView(column="announced", row="straight", score=66)
    turn = _turn(
        roll=2,
        announcement=announced,
        directed_row="fives",
        pending=announced,
        legal=[announced],
        can_roll=False,
        deadline=NOW + timedelta(seconds=41, milliseconds=200),
    )
    session = _started(players=2, preset=5, seconds=60)
    view = game_view(session).model_copy(update={"turn": turn})
    # when it is rendered for the other player
    text = render_game(view, me=BEN, now=NOW)
    # then the announcement, the direction, the pending choice and the clock are shown
    assert "announced: announced/straight" in text
    assert "directed row: fives" in text
    assert "selected (written if the clock runs out): announced/straight = 66" in text
    assert re.search(r"1\. announced/straight\s+66", text)
    assert "can roll: no" in text
    assert "clock: 42 s left" in text


def test_render_game_given_many_legal_cells_then_lists_them_in_columns() -> None:
    # given a five-column game at roll 1: 41 legal cells
    session = _started(preset=4)
    view = game_view(session)
    assert view.turn is not None
    cells = view.turn.legal
    # when it is rendered
    text = render_game(view, me=ANA, now=NOW)
    # then they are all numbered, in two columns read downwards, within 100 characters a line
    first_line = next(line for line in text.splitlines() if " 1. " in line)
    assert f"{len(cells) // 2 + 2}. " in first_line
    for number, cell in enumerate(cells, start=1):
        assert re.search(rf"\b{number}\. {cell.column}/{cell.row}\s+{cell.score}\b", text)
    legal_lines = text.split("legal cells")[1].splitlines()
    assert max(len(line) for line in legal_lines) <= 100


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"deadline": NOW + timedelta(seconds=9, milliseconds=1)}, "10 s left"),
        ({"deadline": NOW - timedelta(seconds=3)}, "0 s left"),
        ({"frozen_ms": 12_500}, "frozen with 13 s left"),
        ({}, "unlimited"),
    ],
)
def test_render_clock_given_a_turn_then_shows_the_seconds_left(
    fields: dict[str, Any], expected: str
) -> None:
    # given a turn with a running, past, frozen or no deadline; when rendered; then
    assert render_clock(_turn(**fields), NOW) == expected


def test_render_game_given_a_family_grid_then_the_sheet_has_its_rows_and_the_extra_line() -> None:
    # given a started classic game
    settings = validate_settings({"players": 1, "grid": "classic", "turnSeconds": None})
    session = lobby.create(GAME_ID, ANA, "c", settings, NOW, server_seed="00" * 32)
    lobby.start(session, ANA, NOW, SeededDice("classic"))
    # when it is rendered
    text = render_game(_view(session), me=ANA, now=NOW)
    # then its one column `main`, its rows and the Yahtzee bonus line appear
    assert "main" in text
    assert _sheet_row(text, "chance") == ["."]
    assert _sheet_row(text, "-- upper") == ["0"]
    assert "-- extra" in text
    assert "-- middle" not in text


# ------------------------------------------------------------------------------- render: frames


def test_render_frame_given_a_wire_game_frame_with_null_turn_seconds_then_the_clock_is_unlimited():
    # given a game frame as the server encodes it (nulls sent)
    frame = json.loads(encode(GameFrame(game=game_view(_started()))))
    assert frame["game"]["settings"]["turnSeconds"] is None
    # when it is rendered
    text = render_frame(frame, me=ANA, now=NOW)
    # then the settings say unlimited, not the settings' default of 60 s
    assert "time per turn unlimited" in text


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        (
            Ack(request_id="r", action="create_game", game_id="g9", version=1),
            "Game g9 created. Others join it with: join g9",
        ),
        (Ack(request_id="r", action="join_game", game_id="g9", version=2), "Joined game g9."),
        (Ack(request_id="r", action="roll", game_id="g9", version=3), ""),
        (
            ErrorFrame(request_id="r", code="not_your_turn", message="it is not your turn"),
            "Refused (not_your_turn): it is not your turn",
        ),
        (GameFrame(request_id="r"), "You are in no game"),
        (GameListFrame(request_id="r", games=[]), "No open games: `new` creates one."),
        (GameDeletedFrame(game_id="g9"), "Game g9 was deleted."),
        (
            RematchFrame(game_id="g10", from_game_id="g9", by="p-ana", nickname="ana"),
            "ana asks for a rematch of g9: join g10",
        ),
        (
            DisconnectedFrame(code="replaced", reason="replaced"),
            "Disconnected by the server: replaced",
        ),
    ],
)
def test_render_frame_given_each_frame_type_then_says_what_happened(
    frame: Any, expected: str
) -> None:
    # given a frame as JSON; when rendered; then
    text = render_frame(json.loads(encode(frame)), me=ANA, now=NOW)
    assert text.startswith(expected) if expected else text == ""


def test_render_frame_given_a_game_list_then_shows_each_game_and_how_to_join() -> None:
    # given a list with one open game
    summary = GameSummary(
        game_id="abc123",
        status="waiting",
        creator=BEN,
        players=[BEN],
        seats=2,
        grid="yamb",
        columns=["down", "up"],
        created_at=NOW,
    )
    # when rendered
    text = render_frame(GameListFrame(request_id="r", games=[summary]), me=ANA, now=NOW)
    # then the game's id, status, columns, seats and creator are on one line
    assert "abc123  waiting  yamb (down up)  1/2 players  created by ben-4444" in text
    assert "join GAMEID" in text


def test_render_frame_given_a_game_list_with_nicknames_then_names_the_creator_by_nickname() -> None:
    # given a list whose game's creator has a nickname
    summary = GameSummary(
        game_id="abc123",
        status="waiting",
        creator=BEN,
        players=[BEN],
        nicknames=["benny"],
        seats=2,
        grid="yamb",
        columns=["down", "up"],
        created_at=NOW,
    )
    # when rendered
    text = render_frame(GameListFrame(request_id="r", games=[summary]), me=ANA, now=NOW)
    # then the creator is named by that nickname, not by an id prefix
    assert "created by benny" in text
    assert "ben-4444" not in text


def test_render_frame_given_an_unknown_frame_then_shows_it_raw() -> None:
    # given a frame type the client does not know; when rendered; then it is shown as data
    assert "does not know" in render_frame({"type": "news", "x": 1}, me=None, now=NOW)


# ------------------------------------------------------------------------------- commands


def test_parse_command_given_the_turn_on_screen_then_turn_actions_name_it() -> None:
    # given a player whose screen shows turn 7
    context = CommandContext(game_id=GAME_ID, legal=LEGAL, dice_count=5, turn=7)
    # when turn actions and another action are parsed
    roll, write, resign = (parse_command(line, context) for line in ("roll 1", "write 1", "resign"))
    # then the turn actions name turn 7 (a late one is refused), the others do not
    assert isinstance(roll, SendAction) and roll.action["turn"] == 7
    assert isinstance(write, SendAction) and write.action["turn"] == 7
    assert isinstance(resign, SendAction) and "turn" not in resign.action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("new", {"action": "create_game", "settings": {"grid": "yamb", "players": 1, "preset": 1}}),
        (
            "new preset 3 players 2 seconds 30",
            {
                "action": "create_game",
                "settings": {"grid": "yamb", "players": 2, "preset": 3, "turnSeconds": 30},
            },
        ),
        (
            "NEW Preset 1 seconds unlimited dice 6",
            {
                "action": "create_game",
                "settings": {
                    "grid": "yamb",
                    "players": 1,
                    "preset": 1,
                    "turnSeconds": None,
                    "dice": 6,
                },
            },
        ),
        (
            "new columns down,free",
            {
                "action": "create_game",
                "settings": {"grid": "yamb", "players": 1, "columns": ["down", "free"]},
            },
        ),
        (
            "new grid classic",
            {"action": "create_game", "settings": {"grid": "classic", "players": 1}},
        ),
        ("list", {"action": "list_games"}),
        ("sync", {"action": "sync"}),
        ("join abc-123", {"action": "join_game", "gameId": "abc-123"}),
        ("watch abc_9", {"action": "watch_game", "gameId": "abc_9"}),
        ("start", {"action": "start_game", "gameId": GAME_ID}),
        ("start other", {"action": "start_game", "gameId": "other"}),
        ("leave", {"action": "leave_game", "gameId": GAME_ID}),
        ("delete", {"action": "delete_game", "gameId": GAME_ID}),
        ("rematch", {"action": "rematch", "gameId": GAME_ID}),
        ("roll", {"action": "roll", "gameId": GAME_ID}),
        ("lock 2 4", {"action": "lock", "gameId": GAME_ID, "keep": [1, 3]}),
        ("lock", {"action": "lock", "gameId": GAME_ID, "keep": []}),
        ("roll 1 3 4", {"action": "roll", "gameId": GAME_ID, "keep": [0, 2, 3]}),
        ("roll keep 5,1", {"action": "roll", "gameId": GAME_ID, "keep": [0, 4]}),
        ("roll 533", {"action": "roll", "gameId": GAME_ID, "keep": [2, 4]}),
        ("announce 3", {"action": "announce", "gameId": GAME_ID, "column": "free", "row": "yamb"}),
        (
            "announce Announced Straight",
            {"action": "announce", "gameId": GAME_ID, "column": "announced", "row": "straight"},
        ),
        ("select 1", {"action": "select", "gameId": GAME_ID, "column": "down", "row": "ones"}),
        ("select none", {"action": "select", "gameId": GAME_ID}),
        ("write 2", {"action": "write", "gameId": GAME_ID, "column": "up", "row": "yamb"}),
        (
            "write down ones",
            {"action": "write", "gameId": GAME_ID, "column": "down", "row": "ones"},
        ),
        ("write ones", {"action": "write", "gameId": GAME_ID, "column": "down", "row": "ones"}),
        ("resign", {"action": "resign", "gameId": GAME_ID}),
        ("finish yes", {"action": "finish_sheet", "gameId": GAME_ID, "accept": True}),
        ("finish no", {"action": "finish_sheet", "gameId": GAME_ID, "accept": False}),
    ],
)
def test_parse_command_given_each_command_then_gives_a_valid_protocol_action(
    line: str, action: dict[str, Any]
) -> None:
    # given a player in a game with three legal cells; when a line is parsed
    command = parse_command(line, PLAYING)
    # then it is that action, and the protocol accepts it once it has a requestId
    assert command == SendAction(action)
    CLIENT_ACTIONS.validate_python({**action, "requestId": "r-1"})


@pytest.mark.parametrize(
    ("line", "name"), [("help", "help"), ("show", "show"), ("quit", "quit"), ("exit", "quit")]
)
def test_parse_command_given_a_local_command_then_the_client_carries_it_out(
    line: str, name: str
) -> None:
    # given any context; when parsed; then
    assert parse_command(line, CommandContext()) == LocalCommand(name)  # type: ignore[arg-type]


def test_parse_command_given_a_blank_line_then_there_is_nothing_to_do() -> None:
    # given spaces only; when parsed; then
    assert parse_command("   ", PLAYING) == NoInput()


@pytest.mark.parametrize(
    ("line", "context", "message"),
    [
        ("rol 1", PLAYING, "Unknown command 'rol'. Did you mean `roll`?"),
        ("dance", PLAYING, "Type `help` for the commands."),
        ("roll", CommandContext(), "You are in no game"),
        ("write 1", CommandContext(), "No legal cells are shown now"),
        ("roll 6", PLAYING, "A die's position is a number from 1 to 5, not '6'."),
        ("roll x", PLAYING, "A die's position is a number from 1 to 5"),
        ("write 4", PLAYING, "A legal cell is a number from 1 to 3, not '4'."),
        ("write 0", PLAYING, "A legal cell is a number from 1 to 3"),
        ("write", PLAYING, "Usage: write N"),
        ("write yamb", PLAYING, "Usage: write N"),
        ("announce a b c", PLAYING, "Usage: announce N"),
        ("join", PLAYING, "Usage: join GAMEID"),
        ("join a/b", PLAYING, "'a/b' is not a game id"),
        ("finish maybe", PLAYING, "Usage: finish yes|no"),
        ("resign now", PLAYING, "`resign` takes no arguments."),
        ("new preset", PLAYING, "Options come in pairs"),
        ("new colour red", PLAYING, "Unknown option 'colour'"),
        ("new preset 9", PLAYING, "preset is a number from 1 to 7, not '9'."),
        ("new players many", PLAYING, "players is a number from 1 to 4"),
        ("new grid chess", PLAYING, "Unknown grid 'chess'"),
        ("new columns down,sideways", PLAYING, "columns are some of down,up,free"),
        ("quit now", PLAYING, "`quit` takes no arguments."),
    ],
)
def test_parse_command_given_bad_input_then_says_what_is_wrong(
    line: str, context: CommandContext, message: str
) -> None:
    # given a line that is not a valid command; when parsed
    command = parse_command(line, context)
    # then the client shows a helpful message instead of sending anything
    assert isinstance(command, BadInput)
    assert message in command.message


def test_help_given_the_parser_then_names_every_command() -> None:
    # given the help text; then every command the parser knows is in it
    for name in (
        "new",
        "list",
        "join",
        "watch",
        "start",
        "roll",
        "announce",
        "select",
        "write",
        "resign",
        "finish",
        "leave",
        "delete",
        "rematch",
        "sync",
        "show",
        "help",
        "quit",
    ):
        assert re.search(rf"^  (\w+ \| )?{name}\b", str(HELP), re.M), name


# ------------------------------------------------------------------------------- session helpers


def test_player_id_of_given_an_id_token_then_reads_its_subject() -> None:
    # given a JWT with a subject, and strings that are not JWTs; when read; then
    assert player_id_of(_token({"sub": ANA, "token_use": "id"})) == ANA
    assert player_id_of("not-a-token") is None
    assert player_id_of("a.!!!.c") is None
    assert player_id_of(_token({"aud": "x"})) is None


def test_connection_url_given_a_token_then_adds_it_as_the_query() -> None:
    # given URLs with and without a query; when the token is added; then
    assert connection_url("ws://h:1/local", "a.b+c") == "ws://h:1/local?token=a.b%2Bc"
    assert connection_url("wss://h/live?x=1", "t") == "wss://h/live?x=1&token=t"


def test_cli_play_given_no_url_and_no_local_stack_then_exits_2_with_a_hint(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # given no --url/--token and no local stack's state file
    import devstack.stack

    monkeypatch.delenv("YAMB_URL", raising=False)
    monkeypatch.delenv("YAMB_TOKEN", raising=False)
    monkeypatch.setattr(devstack.stack, "STATE_FILE", tmp_path / "absent.json")
    # when `yamb play` runs
    status = main(["play", "--name", "ana"])
    # then it says how to start the stack or what to give instead
    assert status == 2
    assert "no local stack is running: start it with `make dev`" in capsys.readouterr().err


def test_cli_play_help_given_the_parser_then_documents_the_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # given `yamb play --help`; when run; then the options and commands are described
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    for text in ("--url WS_URL", "--token TOKEN", "--name NAME", "write N", "roll [positions"):
        assert text in out
