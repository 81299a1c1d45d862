"""Soak run of the local stack (`make bench`): a day's kinds of use, mixed, for `--minutes`.

It starts the local stack in this process (its memory is this process's) and runs, side by side
until the time is up:

- games: pairs of players play Yacht to the end over real WebSocket connections;
- gifts: a giver sends a gift five times at once with one Idempotency-Key (one applies, the
  other transactions are cancelled: what once stopped the stream consumers), then one with a
  key of its own;
- payments: Stripe's webhook with signed test events (`checkout.session.completed` with our
  metadata), a third of them delivered twice;
- jobs: every scheduled job run by hand, with "now" the stack's now (as `python -m devstack
  job` does).

It prints the process's RSS at the start, every `--every` seconds and at the end, and, once the
stream consumers are idle, for each of them the stream records written that its filter takes
against those delivered (and dropped). It checks that every game finished, that each game's
winners were paid their reward, that every gift applied once and every payment credited once
(the tokens add up), that no stream record was lost, and that memory levels off: the RSS's
growth after warm-up (the first third of the run) is under `--max-growth` MB a minute. The exit
status is 1 when a check fails.

    .venv/bin/python bench/soak.py [--minutes 10] [--games 2] [--every 30] [--max-growth 15]
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jwt
import stripe
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "shared"))

from devstack.aws import local_secret_value  # noqa: E402
from devstack.fairplay_answers import FairplayAnswers  # noqa: E402
from devstack.stack import LocalStack, local_nickname  # noqa: E402
from devstack.streams import matches, wait_until  # noqa: E402

WEBHOOK_SECRET_PARAMETER = "/yamb/stripe/webhook-secret"
YACHT = {"players": 2, "grid": "yacht"}
YACHT_REWARD = 5  # tokens for a Yacht win (docs/economy.md)
GIFT = 3
PACK = "pack-500"  # the catalogue's smallest pack: 500 tokens for 4.99 EUR
PACK_TOKENS = 500
PACK_CENTS = 499
ANSWER_TIMEOUT = 30.0
DRAIN_TIMEOUT = 60.0


def rss_mb() -> float:
    """This process's resident set, in MB (Linux's /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover - not Linux


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    gifts: int = 0
    gift_answers: dict[int, int] = field(default_factory=dict)
    payments: int = 0
    deliveries: int = 0
    jobs: int = 0
    errors: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


class Player:
    """One connected player: sends an action and reads frames until its answer; answers its
    fair-play checks as a person would (devstack.fairplay_answers)."""

    _ids = itertools.count(1)

    def __init__(self, stack: LocalStack, name: str) -> None:
        self.name = name
        url = f"{stack.url}?token={stack.player_token(name)}"
        self.socket: ClientConnection = connect(url, max_queue=None).__enter__()
        self.checks = FairplayAnswers(self._send)

    def _send(self, message: dict[str, Any]) -> None:
        self.checks.sent(message)
        self.socket.send(json.dumps(message))

    def act(self, action: str, **fields: Any) -> dict[str, Any]:
        request_id = f"{self.name}-{next(self._ids)}"
        self._send({"action": action, "requestId": request_id, **fields})
        while True:
            frame = json.loads(self.socket.recv(timeout=ANSWER_TIMEOUT))
            if self.checks.handled(frame) or frame.get("requestId") != request_id:
                continue
            if frame.get("type") != "game":
                raise RuntimeError(f"{self.name} {action}: {frame}")
            return frame["game"]  # type: ignore[no-any-return]

    def close(self) -> None:
        self.socket.close()


class Soak:
    def __init__(self, stack: LocalStack, tally: Tally, stop: threading.Event) -> None:
        self.stack = stack
        self.tally = tally
        self.stop = stop
        self.run_id = uuid.uuid4().hex[:6]
        table = stack.aws.physical_ids["GameTable"]
        from yamb_service.common.dynamo import item_model
        from yamb_service.economy.wallet_dynamo import DynamoWalletStore

        self.wallets = DynamoWalletStore(
            item_model(table, stack.aws.region, stack.aws.endpoint_url)
        )
        self._ids: dict[str, str] = {}
        self._tokens: dict[str, tuple[float, str]] = {}
        self.credited: dict[str, int] = {}  # tokens paid in, by player id
        # Everyone whose wallet the gifts and payments move: a receiver may pass on what it was
        # given without ever buying, so its tokens count though nothing was paid in for it.
        self.traders: set[str] = set()

    def token(self, name: str) -> str:
        """The player's ID token, signed in again every 30 minutes (it lasts an hour)."""
        signed = self._tokens.get(name)
        if signed is None or signed[0] < time.monotonic() - 1800:
            signed = (time.monotonic(), self.stack.player_token(name))
            self._tokens[name] = signed
        return signed[1]

    def player_id(self, name: str) -> str:
        if name not in self._ids:
            token = self.token(name)
            self._ids[name] = str(jwt.decode(token, options={"verify_signature": False})["sub"])
        return self._ids[name]

    def _loop(self, step: Callable[[int], None], pause: float) -> None:
        for n in itertools.count():
            if self.stop.is_set():
                return
            try:
                step(n)
            except Exception as error:  # reported, and the run goes on
                self.tally.error(f"{step.__name__}: {error!r}")
            self.stop.wait(pause)

    # -- games

    def games(self, lane: int) -> None:
        names = (f"soak-{self.run_id}-g{lane}a", f"soak-{self.run_id}-g{lane}b")
        for name in names:
            self.player_id(name)

        def game(_: int) -> None:
            first, second = Player(self.stack, names[0]), Player(self.stack, names[1])
            try:
                state = first.act("create_game", settings=YACHT)
                second.act("join_game", gameId=state["gameId"])
                state = first.act("start_game", gameId=state["gameId"])
                seats = {
                    s["playerId"]: p for s, p in zip(state["seats"], (first, second), strict=True)
                }
                while state["status"] == "running":
                    cell = state["turn"]["legal"][0]
                    mover = seats[state["turn"]["playerId"]]
                    state = mover.act(
                        "write", gameId=state["gameId"], column=cell["column"], row=cell["row"]
                    )
                with self.tally.lock:
                    self.tally.games += 1
                    for winner in state["winners"]:
                        self.tally.wins[winner] = self.tally.wins.get(winner, 0) + 1
            finally:
                first.close()
                second.close()

        self._loop(game, 0.0)

    # -- payments

    def _webhook(self, payload: str) -> dict[str, Any]:
        header = stripe.WebhookSignature.generate_signature_header(
            payload, local_secret_value(WEBHOOK_SECRET_PARAMETER)
        )
        status, body = self.http(
            "POST",
            "/webhooks/stripe",
            None,
            payload.encode(),
            {"Content-Type": "application/json", "Stripe-Signature": header},
        )
        if status != 200:
            raise RuntimeError(f"webhook answered {status} {body}")
        return body  # type: ignore[no-any-return]

    def pay(self, player: str) -> None:
        """A pack of tokens bought: Stripe's paid session delivered (a third of them twice)."""
        player_id = self.player_id(player)
        self.traders.add(player_id)
        session = f"cs_test_soak_{uuid.uuid4().hex}"
        metadata = {
            "yamb_player": player_id,
            "yamb_recipient": player_id,
            "yamb_offer": PACK,
            "yamb_tokens": str(PACK_TOKENS),
            "yamb_amount": str(PACK_CENTS),
        }
        event = {
            "id": f"evt_soak_{uuid.uuid4().hex}",
            "object": "event",
            "api_version": "2025-11-17.clover",
            "created": int(time.time()),
            "livemode": False,
            "type": "checkout.session.completed",
            "data": {
                "object": {
                    "id": session,
                    "object": "checkout.session",
                    "payment_status": "paid",
                    "payment_intent": f"pi_{session}",
                    "amount_total": PACK_CENTS,
                    "currency": "eur",
                    "metadata": metadata,
                }
            },
        }
        payload = json.dumps(event)
        with self.tally.lock:
            again = self.tally.payments % 3 == 0
        answers = [self._webhook(payload)]
        if again:
            answers.append(self._webhook(payload))
        if answers[0].get("handled") != "credited":
            raise RuntimeError(f"a paid session was not credited: {answers}")
        with self.tally.lock:
            self.tally.payments += 1
            self.tally.deliveries += len(answers)
            self.credited[player_id] = self.credited.get(player_id, 0) + PACK_TOKENS

    # -- gifts

    def gifts(self) -> None:
        people = [f"soak-{self.run_id}-e{n}" for n in range(4)]
        for person in people:  # registered before anyone names them
            self.traders.add(self.player_id(person))

        def gift(n: int) -> None:
            giver, receiver = people[n % 4], people[(n + 1) % 4]
            if self.wallets.wallet(self.player_id(giver)).balance < 2 * GIFT:
                self.pay(giver)
            key = f"soak-{self.run_id}-{n}"
            with ThreadPoolExecutor(5) as pool:
                statuses = list(pool.map(lambda _: self.gift(giver, receiver, key), range(5)))
            statuses.append(self.gift(giver, receiver, f"{key}-own"))
            with self.tally.lock:
                self.tally.gifts += 2
                for status in statuses:
                    self.tally.gift_answers[status] = self.tally.gift_answers.get(status, 0) + 1
            if statuses[-1] != 201 or 201 not in statuses[:5]:
                raise RuntimeError(f"gifts answered {statuses}")

        self._loop(gift, 1.0)

    def gift(self, giver: str, receiver: str, key: str) -> int:
        token = self.token(giver)
        body = json.dumps({"nickname": local_nickname(receiver), "amount": GIFT}).encode()
        headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": key,
        }
        status, _ = self.http("POST", "/me/gifts", token, body, headers)
        return status

    def payments(self) -> None:
        buyers = [f"soak-{self.run_id}-p{n}" for n in range(3)]
        self._loop(lambda n: self.pay(buyers[n % 3]), 2.0)

    # -- jobs

    def jobs(self) -> None:
        schedules = [schedule.name for schedule in self.stack.schedules()]

        def run(_: int) -> None:
            for name in schedules:
                self.stack.run_job(name, self.stack.aws.clock.now())
                with self.tally.lock:
                    self.tally.jobs += 1

        self._loop(run, 20.0)

    # -- HTTP

    def http(
        self,
        method: str,
        path: str,
        token: str | None,
        data: bytes | None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(
            f"{self.stack.gateway.http_url}{path}", data=data, method=method, headers=sent
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


def stream_counts(stack: LocalStack) -> list[tuple[str, int, int, int]]:
    """(function, records written that its filter takes, delivered, dropped) per consumer."""
    streams = stack.aws.client("dynamodbstreams")
    rows = []
    for poller in stack.streams:
        arn = poller.stream_arn
        shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
        iterator = streams.get_shard_iterator(
            StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
        )["ShardIterator"]
        written = 0
        while True:
            answer = streams.get_records(ShardIterator=iterator, Limit=1000)
            records = answer["Records"]
            written += sum(
                1
                for record in records
                if not poller.mapping.filters
                or any(matches(pattern, record) for pattern in poller.mapping.filters)
            )
            if not records:
                break
            iterator = answer["NextShardIterator"]
        rows.append((poller.mapping.function, written, poller.delivered, poller.dropped))
    return rows


def growth_per_minute(samples: list[tuple[float, float]]) -> float:
    """The least-squares slope of (seconds, MB) samples, in MB a minute."""
    if len(samples) < 3:
        return 0.0
    seconds = [t for t, _ in samples]
    mbs = [m for _, m in samples]
    return statistics.linear_regression(seconds, mbs).slope * 60


def main(argv: list[str] | None = None) -> int:  # noqa: PLR0915 - the run, its checks, its report
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=2, help="games played side by side")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between RSS prints")
    parser.add_argument("--max-growth", type=float, default=15.0, help="MB a minute after warm-up")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    started = time.monotonic()
    print(f"soak: {args.minutes:g} minutes, {args.games} games at a time", flush=True)
    with LocalStack() as stack:
        # The functions' INFO lines (one a move) would drown the figures.
        logging.getLogger("yamb").setLevel(logging.WARNING)
        tally, stop = Tally(), threading.Event()
        soak = Soak(stack, tally, stop)
        samples: list[tuple[float, float]] = []
        begin = rss_mb()
        print(f"  RSS at start (stack up): {begin:.0f} MB", flush=True)
        workers = [
            *(threading.Thread(target=soak.games, args=(lane,)) for lane in range(args.games)),
            threading.Thread(target=soak.gifts),
            threading.Thread(target=soak.payments),
            threading.Thread(target=soak.jobs),
        ]
        for worker in workers:
            worker.start()
        t0 = time.monotonic()
        deadline = t0 + args.minutes * 60
        while not stop.wait(min(args.every, max(0.0, deadline - time.monotonic()))):
            now = time.monotonic()
            samples.append((now - t0, rss_mb()))
            print(
                f"  {(now - t0) / 60:5.1f} min  RSS {samples[-1][1]:6.0f} MB  games {tally.games}"
                f"  gifts {tally.gifts}  payments {tally.payments}  jobs {tally.jobs}"
                f"  errors {len(tally.errors)}",
                flush=True,
            )
            if now >= deadline:
                stop.set()
        for worker in workers:
            worker.join(ANSWER_TIMEOUT * 3)
        idle = wait_until(
            lambda: all(poller.pending == 0 for poller in stack.streams), timeout=DRAIN_TIMEOUT
        )
        time.sleep(1.0)  # a last poll: records written just before are read
        wait_until(lambda: all(p.pending == 0 for p in stack.streams), timeout=DRAIN_TIMEOUT)
        end = rss_mb()
        counts = stream_counts(stack)
        failures = list(tally.errors)
        if not idle:
            failures.append("the stream consumers did not drain")
        print(f"  RSS at end: {end:.0f} MB (start {begin:.0f} MB)")
        print("  stream records: consumer, written (its filter), delivered, dropped")
        for function, written, delivered, dropped in counts:
            print(f"    {function:<20} {written:6d} {delivered:6d} {dropped:4d}")
            if delivered != written or dropped:
                failures.append(f"{function}: {written} written, {delivered} delivered")
        ended = next((w for f, w, _, _ in counts if f == "RewardsFunction"), None)
        if ended is not None and ended != tally.games:
            failures.append(f"{tally.games} games finished, {ended} ends in the stream")
        # each game's winners were paid, once a win (their other tokens are tasks' and badges')
        for player_id, wins in tally.wins.items():
            paid = [e for e in soak.wallets.entries(player_id, 10_000) if e.reason == "win"]
            if len(paid) != wins or any(e.amount != YACHT_REWARD for e in paid):
                failures.append(f"{player_id}: {wins} wins, {len(paid)} win rewards")
        # the economy's tokens add up: what was paid in, moved around by gifts
        held = sum(soak.wallets.wallet(p).balance for p in soak.traders)
        if held != sum(soak.credited.values()):
            failures.append(f"tokens: {sum(soak.credited.values())} paid in, {held} held")
        warm = [s for s in samples if s[0] >= args.minutes * 60 / 3]
        slope = growth_per_minute(warm)
        print(
            f"  games {tally.games}, gifts {tally.gifts} (answers {tally.gift_answers}), payments"
            f" {tally.payments} ({tally.deliveries} deliveries), jobs {tally.jobs}"
        )
        print(f"  RSS growth after warm-up: {slope:+.1f} MB/min (limit {args.max_growth:g})")
        if slope > args.max_growth:
            failures.append(f"memory grows {slope:+.1f} MB/min after warm-up")
    print(f"  took {time.monotonic() - started:.0f} s")
    for failure in failures[:20]:
        print(f"  FAIL {failure}")
    print("soak: " + ("FAILED" if failures else "ok"), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
