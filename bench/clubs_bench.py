"""Clubs at scale (`make bench`, issue 31): the month's club board read with 10,000 clubs, and
what a member's ranked result costs the club score.

- **The board**: 10,000 clubs, each with its item and its score of the month (the scores spread
  as monthly main-board sums of 1 to 30 counted members), loaded with BatchWriteItem. Measured
  at 1,000 clubs, then again at 10,000: `ClubBoardService.board` (one Query of gsi1's
  `CLUBBOARD#<month>` for the 50 best, one BatchGetItem of their clubs for names and tags).
- **A ranked result**: a 2-player ranked preset-1 game between members of clubs of 100 members
  (each with a row on the month's main board), recorded by the results' recorder (the baseline),
  then by the recorder and `ClubBoardService.after_result` (what the results function does), with
  each player in one club (no premium) and in three (premium). Each club's score is worked out
  whole: one Query of its members, one BatchGetItem of their 100 rows, one conditional write.

Times are medians, and ratios to a baseline timed in the same run (one GetItem of a club item
for the board; the recorder alone for a result): these machines are noisy. The requests are
counted round botocore and carry over to DynamoDB; moto is no DynamoDB in time (it answers a
Query by going over the whole index), so its board time grows with the table while DynamoDB's
follows the items read. Every answer is checked (the board's order, each score worked out):
a wrong one fails the bench (exit 1).

    .venv/bin/python bench/clubs_bench.py [--clubs 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from progression_bench import counted  # noqa: E402

REGION = "us-east-1"
TABLE = "yamb-bench-clubs"
NOW = datetime(2026, 12, 15, 12, 0, tzinfo=UTC)
JOINED = datetime(2026, 11, 20, tzinfo=UTC)  # before the month: members count
MEMBERS = 100


class BenchError(RuntimeError):
    """A figure that is not what the clubs must give."""


def timed(call: Callable[[], Any], runs: int) -> tuple[float, Any]:
    """The median seconds of `runs` calls, and the last answer."""
    times, answer = [], None
    for _ in range(runs):
        start = time.perf_counter()
        answer = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


class World:
    def __init__(self) -> None:
        from yamb_service.clubs import wiring
        from yamb_service.clubs.dynamo import DynamoClubStore
        from yamb_service.common.dynamo import item_model
        from yamb_service.results.dynamo import DynamoResultsStore

        self.item = item_model(TABLE, REGION)
        self.store = DynamoClubStore(self.item)
        self.results = DynamoResultsStore(self.item, sleep=lambda _: None)
        self.board = wiring.board_on(self.item, lambda: NOW)
        self.loaded = 0
        self.scores: dict[str, int] = {}

    def load_clubs(self, upto: int, rng: random.Random) -> None:
        """Clubs `loaded` to `upto`, each with its item and its month's score."""
        from yamb.clubs.board import ClubScore
        from yamb.clubs.model import Club
        from yamb.clubs.rules import search_key
        from yamb_service.clubs.dynamo import club_key

        item = self.item
        with item.batch_write() as batch:
            for n in range(self.loaded, upto):
                club = Club(
                    club_id=f"c{n:05d}",
                    name=f"Club {n:05d}",
                    tag=f"C{n % 1000:03d}",
                    admin_id=f"admin{n}",
                    founded_at=JOINED,
                    members=30,
                    version=1,
                )
                counted_members = rng.randint(1, 30)
                score = sum(rng.randint(300, 2_500) for _ in range(counted_members))
                self.scores[club.club_id] = score
                batch.save(
                    item(
                        club_key(club.club_id),
                        "CLUB",
                        summary=club.model_dump_json(),
                        version=1,
                        gsi1pk="CLUBS",
                        gsi1sk=f"{search_key(club.name)}#{club.club_id}",
                    )
                )
                at = NOW - timedelta(seconds=n)
                written = ClubScore(
                    club_id=club.club_id,
                    period="2026-12",
                    score=score,
                    counted=counted_members,
                    at=at,
                    version=1,
                )
                batch.save(
                    item(
                        club_key(club.club_id),
                        "SCORE#2026-12",
                        entry=written.model_dump_json(exclude={"version"}),
                        summary=written.model_dump_json(exclude={"version"}),
                        version=1,
                        gsi1pk="CLUBBOARD#2026-12",
                        gsi1sk=f"{10**10 - 1 - score:010d}#{at.isoformat()}#{club.club_id}",
                    )
                )
        self.loaded = upto

    def check_board(self, view: Any) -> None:
        best = sorted(self.scores.values(), reverse=True)[: len(view.rows)]
        if [row.score for row in view.rows] != best or len(view.rows) != 50:
            raise BenchError(f"the board is not the 50 best: {[r.score for r in view.rows][:5]}")


def bench_board(world: World, clubs: int, runs: int) -> list[str]:
    rng = random.Random(31)
    lines = []
    for size in sorted({max(1, clubs // 10), clubs}):
        start = time.perf_counter()
        world.load_clubs(size, rng)
        loading = time.perf_counter() - start
        baseline, _ = timed(lambda: world.store.club("c00000"), runs)
        requests: Counter[str] = Counter()
        with counted(requests):
            world.board.board("2026-12")
        read, view = timed(lambda: world.board.board("2026-12"), runs)
        world.check_board(view)
        asked = ", ".join(f"{op} {n}" for op, n in sorted(requests.items()))
        lines.append(
            f"  {size:>6,} clubs: board read {read * 1000:7.1f} ms = {read / baseline:6.1f} x "
            f"one GetItem ({baseline * 1000:.2f} ms); requests: {asked} (loaded in {loading:.1f} s)"
        )
    return lines


def _member_clubs(world: World, players: list[str], clubs_each: int, tag: str) -> None:
    """Clubs of MEMBERS members for the players, each player in `clubs_each` of them, every
    member with a row on the month's main board; the players' lists of clubs."""
    from yamb.clubs.board import main_board
    from yamb.clubs.model import Club, Member, Membership, PlayerClubs
    from yamb.results.boards import Entry, ScoredGame
    from yamb.results.periods import month_of

    store, board = world.store, main_board(month_of(NOW))
    for index in range(clubs_each):
        club_id = f"{tag}{index}"
        club = Club(
            club_id=club_id,
            name=f"Bench {club_id}",
            tag="BN",
            admin_id=players[0],
            founded_at=JOINED,
            members=MEMBERS,
            version=1,
        )
        parts = [store.club_part(None, club)]
        members = [*players, *(f"{club_id}-m{n:03d}" for n in range(MEMBERS - len(players)))]
        for player in members:
            parts.append(
                store.member_part(
                    club_id, Member(player_id=player, role="member", joined_at=JOINED), new=True
                )
            )
        for start in range(0, len(parts), 100):
            store.commit(parts[start : start + 100])
        for player in members[len(players) :]:
            game = ScoredGame(game_id=f"old-{player}", score=400, at=NOW, preset=1)
            entry = Entry(entrant=player, players=[player], score=400, games=[game], since=NOW)
            world.results.write_row(board, None, entry)
    for player in players:
        held = store.player_clubs(player)
        after = PlayerClubs(
            clubs=[
                *held.clubs,
                *(
                    Membership(club_id=f"{tag}{i}", role="member", joined_at=JOINED)
                    for i in range(clubs_each)
                ),
            ],
            version=held.version + 1,
        )
        store.commit([store.player_clubs_part(player, held, after)])


def _result(game: int, players: list[str]) -> Any:
    from yamb.results.facts import SheetFacts
    from yamb.session.results import GameResult, PlayerResult
    from yamb.settings import GameSettings

    return GameResult(
        game_id=f"bench-{game:04d}",
        settings=GameSettings(ranked=True, preset=1, players=2, turn_seconds=60),
        ended_at=NOW,
        winners=[players[0]],
        players=[
            PlayerResult(
                player_id=p,
                total=t,
                full=True,
                left=False,
                turns=26,
                facts=SheetFacts(columns=2, bonuses=1, cells=26, yamb_cells=2, yambs=1),
            )
            for p, t in zip(players, (480 + game, 430 + game), strict=True)
        ],
        outcome="completed",
        recorded=True,
    )


def bench_result(world: World, runs: int) -> list[str]:
    from yamb.clubs.board import main_board
    from yamb.results.periods import month_of
    from yamb_service.results.service import ResultsRecorder

    class _Names:
        def get(self, player_id: str) -> None:
            return None

        def profiles(self, player_ids: Any) -> dict[str, Any]:
            return {}

        def nickname_owner(self, nickname: str) -> None:
            return None

    recorder = ResultsRecorder(world.results, _Names(), now=lambda: NOW)  # type: ignore[arg-type]
    lines = []
    game = 0
    for clubs_each, label in ((1, "in 1 club"), (3, "in 3 clubs (premium)")):
        alone: list[float] = []
        with_clubs: list[float] = []
        extra: Counter[str] = Counter()
        for run in range(runs):
            pair = [f"{label[:4]}-{run}-a", f"{label[:4]}-{run}-b"]
            _member_clubs(world, pair, clubs_each, f"k{clubs_each}r{run}-")
            game += 1
            start = time.perf_counter()
            recorder.record(_result(game, pair))
            alone.append(time.perf_counter() - start)
            game += 1
            result = _result(game, pair)
            start = time.perf_counter()
            recorder.record(result)
            requests: Counter[str] = Counter()
            with counted(requests):
                scored = world.board.after_result(result)
            with_clubs.append(time.perf_counter() - start)
            if run == 0:
                extra = requests
            if scored != clubs_each:
                raise BenchError(f"{scored} clubs scored, not {clubs_each}")
            rows = world.results.rows(main_board(month_of(NOW)), pair)
            want = sum(row.score for row in rows.values()) + 400 * (MEMBERS - 2)
            got = world.store.score(f"k{clubs_each}r{run}-0", "2026-12")
            if got is None or got.score != want:
                raise BenchError(f"the club's score is {got}, not {want}")
        base, total = statistics.median(alone), statistics.median(with_clubs)
        asked = ", ".join(f"{op} {n}" for op, n in sorted(extra.items()))
        lines.append(
            f"  players {label:<21}: record {base * 1000:6.1f} ms, with the club scores "
            f"{total * 1000:6.1f} ms = {total / base:4.2f} x; the clubs' requests: {asked}"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    logging.getLogger("moto").setLevel(logging.CRITICAL)
    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(name, "bench")

    from moto import mock_aws
    from results_bench import item_level_rollback

    with mock_aws(), item_level_rollback():
        from yamb_service.common.observability import logger

        from testkit.table import create_game_table

        logger.setLevel(logging.WARNING)
        create_game_table(TABLE, stream=False)
        world = World()
        try:
            print("clubs bench: the month's club board, and a ranked result's club scores")
            print("\n".join(bench_board(world, args.clubs, args.runs)))
            print("\n".join(bench_result(world, args.runs)))
        except BenchError as error:
            print(f"FAILED: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
