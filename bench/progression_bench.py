"""What progression adds to a finished game (`make bench`): the results function records each
game's end from the table's stream into the results (statistics, head-to-heads, boards), then
into progression (the week's task counters, the referral's weeks, the badges' counters). Here,
for 2-player ranked preset-1 games between players who were invited (so the referral does its
most), the DynamoDB requests, the items each writes, and the time per game end:

- baseline: `ResultsRecorder.record` alone, timed in the same run, game ends alternating with
  the measured ones;
- with progression: `record` then `progression_events.record_game`'s three parts;
- a repeat: the same end delivered again (what a stream's retry costs).

Times are medians and ratios to the baseline's (moto answers in Python: the requests and items
are what carry over to DynamoDB). In-process on moto, the table of template.yaml (no stream: the
calls are made directly), as tests/integration/test_tasks.py and test_results.py assemble them;
moto's transactions back up only the items they name (bench/results_bench.py's
`item_level_rollback`: moto copies the whole table for each item otherwise).

    .venv/bin/python bench/progression_bench.py [--games 20]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

REGION = "us-east-1"
TABLE = "yamb-bench-progression"
MONDAY = datetime(2026, 12, 7, tzinfo=UTC)


class BenchError(RuntimeError):
    """A figure that is not what recording the games must give."""


@contextmanager
def counted(requests: Counter[str]) -> Iterator[None]:
    """Every DynamoDB request sent meanwhile, by operation, and the items the writes name
    (`items in writes`: a cancelled transaction's too, as DynamoDB bills them)."""
    from botocore.client import BaseClient

    real = BaseClient._make_api_call

    def counting(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if client.meta.service_model.service_name == "dynamodb":
            requests[operation] += 1
            if operation == "TransactWriteItems":
                requests["items in writes"] += len(params["TransactItems"])
            elif operation in ("PutItem", "UpdateItem", "DeleteItem"):
                requests["items in writes"] += 1
        return real(client, operation, params)

    BaseClient._make_api_call = counting  # type: ignore[method-assign]
    try:
        yield
    finally:
        BaseClient._make_api_call = real  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="game ends measured each way")
    args = parser.parse_args()
    if args.games < 4:
        parser.error("--games 4 or more")
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    logging.getLogger("moto").setLevel(logging.CRITICAL)
    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(name, "bench")

    from moto import mock_aws
    from results_bench import item_level_rollback

    with mock_aws(), item_level_rollback():
        from testkit.table import create_game_table

        create_game_table(TABLE, stream=False)
        return run(args.games)


class World:
    """The stores and services of the results function, on the bench's table, with players all
    invited by one inviter (so that each game's end starts two referrals)."""

    def __init__(self, players: int) -> None:
        from yamb.accounts.profile import AccountStatus, Profile
        from yamb_service.accounts.dynamo import DynamoAccountStore
        from yamb_service.common.dynamo import item_model
        from yamb_service.economy.wallet_dynamo import DynamoWalletStore
        from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
        from yamb_service.game.dynamo import DynamoGameRepository
        from yamb_service.progression.badges.dynamo import DynamoBadgeStore
        from yamb_service.progression.badges.service import BadgeService
        from yamb_service.progression.referral.dynamo import DynamoReferralStore
        from yamb_service.progression.referral.service import ReferralService
        from yamb_service.progression.tasks.dynamo import DynamoTasksStore
        from yamb_service.progression.tasks.service import TaskService
        from yamb_service.results.dynamo import DynamoResultsStore
        from yamb_service.results.service import ResultsRecorder

        item = item_model(TABLE, REGION)
        now = MONDAY + timedelta(days=2)
        self.now = now
        accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        wallets = DynamoWalletStore(item, sleep=lambda _: None)
        results = DynamoResultsStore(item, sleep=lambda _: None)
        self.recorder = ResultsRecorder(results, accounts, now=lambda: now)
        self.tasks = TaskService(DynamoTasksStore(item), wallets, accounts, now=lambda: now)
        self.referrals = ReferralService(
            DynamoReferralStore(item),
            results,
            accounts,
            wallets,
            lambda: now,
            web_base_url="https://yamb.example",
            sleep=lambda _: None,
        )
        self.badges = BadgeService(
            DynamoBadgeStore(item),
            wallets,
            accounts,
            lambda: now,
            results=results,
            wardrobes=DynamoWardrobeStore(item),
        )
        names = ["inviter", *(f"p{n:03d}" for n in range(players))]
        for name in names:
            accounts.create(
                Profile(
                    player_id=name,
                    nickname=name,
                    email=None,
                    status=AccountStatus.ACTIVE,
                    created_at=MONDAY - timedelta(weeks=10),
                )
            )
        self.players = names[1:]
        code = self.referrals.code("inviter")
        for invitee in self.players:
            self.referrals.refer(invitee, code, new_account=True)

    def game_end(self, index: int) -> Any:
        from yamb.results.facts import SheetFacts
        from yamb.session.results import GameResult, PlayerResult
        from yamb.settings import GameSettings

        first, second = self.players[2 * index], self.players[2 * index + 1]
        return GameResult(
            game_id=f"g{index:05d}",
            settings=GameSettings(ranked=True, preset=1, players=2, turn_seconds=60),
            ended_at=self.now,
            winners=[first],
            players=[
                PlayerResult(
                    player_id=p,
                    total=t,
                    full=True,
                    left=False,
                    turns=26,
                    facts=SheetFacts(columns=2, bonuses=1, cells=26, yamb_cells=2, yambs=1),
                )
                for p, t in ((first, 480), (second, 430))
            ],
            outcome="completed",
            recorded=True,
        )

    def results_and_progression(self, ended: Any) -> None:
        """What the results function does with a game's end (functions/results/app.py)."""
        self.recorder.record(ended)
        self.tasks.record_game(ended)
        self.referrals.record_game(ended)
        self.badges.record_game(ended)

    def check(self, through: set[str]) -> None:
        """The referral of each player of a game that went through progression started, and
        no other."""
        for invitee in self.players:
            referral = self.referrals.store.referral(invitee)
            if referral is None or (referral.started_at is not None) != (invitee in through):
                raise BenchError(f"{invitee}'s referral is not as its games give: {referral}")


def run(games: int) -> int:
    from yamb_service.common.observability import logger, metrics

    logger.setLevel(logging.WARNING)  # a line per game end otherwise
    metrics.add_metric = lambda **_: None  # type: ignore[method-assign,assignment,misc]
    world = World(players=4 * games)
    ways: dict[str, Callable[[Any], Any]] = {
        "baseline: results": world.recorder.record,
        "results + progression": world.results_and_progression,
    }
    times: dict[str, list[float]] = {way: [] for way in [*ways, "repeat"]}
    requests: dict[str, Counter[str]] = {way: Counter() for way in times}
    ends = [world.game_end(n) for n in range(2 * games)]
    # Alternating, so that both ways meet the same table size and the same machine moments;
    # then each end of the second way delivered again.
    measured = [(list(ways)[n % 2], ended) for n, ended in enumerate(ends)]
    measured += [("repeat", ended) for ended in ends[1::2]]
    for way, ended in measured:
        with counted(requests[way]):
            began = time.perf_counter()
            ways.get(way, world.results_and_progression)(ended)
            times[way].append(time.perf_counter() - began)
    world.check({p.player_id for ended in ends[1::2] for p in ended.players})

    base = statistics.median(times["baseline: results"])
    print(
        f"progression: what a 2-player ranked game's end costs the stream function, {games} "
        "game ends each way, in-process on moto (both players invited)"
    )
    for way, taken in times.items():
        shown = ", ".join(f"{op} {n / games:.1f}" for op, n in sorted(requests[way].items()))
        median = statistics.median(taken)
        print(f"  {way:<22} {median * 1000:7.1f} ms (x{median / base:.2f})  per game end: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
