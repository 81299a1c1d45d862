"""`yamb play` end to end: the terminal client against the local stack over real WebSockets."""

import io
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from yamb_client.cli import main
from yamb_client.session import PlaySession
from yamb_service.game import wiring

import devstack.stack
from devstack.__main__ import token as devstack_token
from devstack.stack import LocalStack

SOLO_SCRIPT = "new preset 1 seconds unlimited\nstart\nroll 1 2\nwrite 1\n"
WAIT = 10.0


def _play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str, *args: str
) -> tuple[int, str]:
    """Runs `yamb play ARGS` with `script` piped in; its exit status and output."""
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = main(["play", *args])
    return status, capsys.readouterr().out


def _after(output: str, line: str) -> str:
    """What the client printed once it carried out the typed `line`."""
    return output.split(f"yamb> {line}\n", 1)[1]


def _value_in_sheet(text: str, column: str, row: str) -> str:
    lines = text.splitlines()
    header = next(line.split() for line in lines if line.split()[:1] == ["down"])
    values = next(line.split()[1:] for line in lines if line.split()[:1] == [row])
    return values[header.index(column)]


def _local_state_file(stack: LocalStack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The state file `make dev` writes, for this test's stack, where devstack looks for it."""
    state_file = tmp_path / ".devstack.json"
    state_file.write_text(json.dumps(stack.describe()), encoding="utf-8")
    monkeypatch.setattr(devstack.stack, "STATE_FILE", state_file)


def test_play_given_a_scripted_solo_game_then_shows_dice_legal_cells_and_the_written_sheet(
    stack: LocalStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a player's token and a script: create, start, roll keeping two dice, write cell 1
    token = stack.player_token("ana-term")
    # when `yamb play` runs it to the end of its input
    status, output = _play(monkeypatch, capsys, SOLO_SCRIPT, "--url", stack.url, "--token", token)
    # then every step is shown: the game created, the dice, the numbered legal cells with scores
    assert status == 0
    assert "You are in no game" in output
    created = re.search(r"Game (\w+) created\. Others join it with: join \1", output)
    assert created is not None
    rolled = _after(output, "roll 1 2").split("yamb> write 1")[0]
    assert "Turn 1: your turn, roll 2 of 3" in rolled
    assert re.search(r"dice:\s+(\d  ){4}\d\n\s+position: 1  2  3  4  5", rolled)
    first = re.search(r"^\s+1\. (\w+)/(\w+)\s+(\d+)$", rolled, re.M)
    assert first is not None
    column, row, score = first.groups()
    assert "can roll: yes" in rolled
    # and after the write, the sheet holds the score in that cell and the next turn began
    written = _after(output, "write 1")
    assert _value_in_sheet(written, column, row) == score
    assert f"Sheet of you: total {score}" in written
    assert "Turn 2: your turn, roll 1 of 3" in written


def test_play_given_two_players_then_the_second_joins_by_id_and_sees_the_first_ones_roll(
    stack: LocalStack,
) -> None:
    # given ana's client, which creates a two-seat table, and ben's, which joins it by its id
    ana_out, ben_out = io.StringIO(), io.StringIO()
    ana_token, ben_token = stack.player_token("ana-duo-term"), stack.player_token("ben-duo-term")
    with (
        PlaySession(stack.url, ana_token, output=ana_out) as ana,
        PlaySession(stack.url, ben_token, output=ben_out) as ben,
    ):
        ana.handle("new players 2 seconds unlimited")
        assert ana.game_id is not None
        ben.handle(f"join {ana.game_id}")
        # when ana starts the game and rolls again
        ana.handle("start")
        ana.handle("roll")
        version = ana.game.version if ana.game else 0
        deadline = time.monotonic() + WAIT
        while (ben.game is None or ben.game.version < version) and time.monotonic() < deadline:
            time.sleep(0.05)
        # then ben's client printed the broadcast: ana's turn at roll 2, seen from ben's seat
        assert ben.game_id == ana.game_id
        assert "Joined game" in ben_out.getvalue()
        assert "'s turn, roll 2 of 3" in ben_out.getvalue()
        # and a move out of turn is refused with the server's reason
        ben.handle("roll")
        assert "Refused (not_your_turn): it is not your turn" in ben_out.getvalue()


def test_play_given_no_url_or_token_then_logs_in_on_the_running_local_stack(
    stack: LocalStack,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # given the local stack's state file and no --url/--token
    _local_state_file(stack, tmp_path, monkeypatch)
    monkeypatch.delenv("YAMB_URL", raising=False)
    monkeypatch.delenv("YAMB_TOKEN", raising=False)
    # when `yamb play --name` runs a script
    status, output = _play(monkeypatch, capsys, "sync\nlist\nquit\nsync\n", "--name", "cleo-term")
    # then it connected as that (new) player, and stopped at `quit`
    assert status == 0
    assert "You are in no game" in _after(output, "sync")
    assert "yamb> list" in output
    assert output.count("yamb> sync") == 1


def test_devstack_token_given_the_running_local_stack_then_prints_an_id_token(
    stack: LocalStack,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # given the local stack's state file
    _local_state_file(stack, tmp_path, monkeypatch)
    # when `python -m devstack token NAME` runs, twice for the same player
    assert devstack_token("dan-term") == 0
    assert devstack_token("dan-term") == 0
    # then it prints a JWT each time
    tokens = capsys.readouterr().out.split()
    assert len(tokens) == 2
    assert all(token.count(".") == 2 for token in tokens)


def test_play_given_a_bad_token_then_exits_1_without_showing_the_token(
    stack: LocalStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a token the authorizer refuses
    monkeypatch.setattr("sys.stdin", io.StringIO("sync\n"))
    # when `yamb play` connects with it
    status = main(["play", "--url", stack.url, "--token", "not-a-valid-token"])
    # then it says it cannot connect, and the token is not echoed
    error = capsys.readouterr().err
    assert status == 1
    assert f"cannot connect to {stack.url}" in error
    assert "not-a-valid-token" not in error


class _ExpiringScript(io.StringIO):
    """A piped script during which the sign-in expires: the service's wall clock jumps two hours
    ahead (once, for one action) when the client reads the line starting with `expire_at`."""

    def __init__(self, text: str, expire_at: str, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__(text)
        self._expire_at = expire_at
        self._expire_next = threading.Event()
        service = wiring.game_service()
        real_wall_time = service.wall_time

        def wall_time() -> float:
            if self._expire_next.is_set():
                self._expire_next.clear()
                return real_wall_time() + 2 * 3600
            return real_wall_time()

        monkeypatch.setattr(service, "wall_time", wall_time)

    def __iter__(self) -> Iterator[str]:
        for line in iter(self.readline, ""):
            if line.startswith(self._expire_at):
                self._expire_next.set()
            yield line


def test_play_given_the_local_sign_in_expires_mid_turn_then_signs_in_again_and_the_roll_applies(
    stack: LocalStack,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # given a local player (no --token) whose sign-in expires as they roll
    _local_state_file(stack, tmp_path, monkeypatch)
    monkeypatch.delenv("YAMB_URL", raising=False)
    monkeypatch.delenv("YAMB_TOKEN", raising=False)
    script = _ExpiringScript(SOLO_SCRIPT, "roll", monkeypatch)
    monkeypatch.setattr("sys.stdin", script)
    # when `yamb play --name` runs the script
    status = main(["play", "--name", "eve-term"])
    output = capsys.readouterr().out
    # then the server closed the expired connection, the client signed in again and sent the
    # roll once more, and the game went on to its write
    assert status == 0
    rolled = _after(output, "roll 1 2").split("yamb> write 1")[0]
    assert "Disconnected by the server: your sign-in has expired" in rolled
    assert "Your sign-in expired: signing in again." in rolled
    assert "Turn 1: your turn, roll 2 of 3" in rolled
    assert "The server closed the connection." not in output
    assert "Turn 2: your turn, roll 1 of 3" in _after(output, "write 1")


def test_play_given_a_given_token_expires_then_says_so_and_stops(
    stack: LocalStack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a token passed with --token (the client cannot get another), expiring at `start`
    token = stack.player_token("fay-term")
    monkeypatch.setattr("sys.stdin", _ExpiringScript(SOLO_SCRIPT, "start", monkeypatch))
    # when `yamb play` runs the script
    status = main(["play", "--url", stack.url, "--token", token])
    output = capsys.readouterr().out
    # then it says why the connection ended and reads no further line
    assert status == 0
    assert "Disconnected by the server: your sign-in has expired" in output
    assert "The server closed the connection." in output
    assert "yamb> roll" not in output
