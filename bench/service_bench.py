"""Game service figures (`make bench`), each beside its aim:

1. what whole games cost on AWS, by component: two games played to the end on the local stack
   over real WebSockets by scripted clients (bench/scripted_game.py), every request counted in
   this process (bench/meters.py) and priced from bench/prices.json (bench/cost_model.py);
2. DynamoDB requests and units per action kind, and the game item of a 4-player 9-column game;
3. each handler's cold start against a bare boto3 baseline timed in the same run
   (bench/cold_start.py), and the game handler's biggest imports;
4. the round trip of a `roll` through the local stack.

It never fails (exit 0): a slow machine or a missed aim is a figure, not a broken build.
"""

import json
import logging
import statistics
import sys
import time
import traceback
import warnings
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cold_start
from cost_model import Line, Prices, aimed_total, billed_ms, game_cost, load_prices
from meters import (
    READ_OPERATIONS,
    STEP_FUNCTIONS_CALLS,
    STEP_FUNCTIONS_TASK,
    WRITE_OPERATIONS,
    WRITE_UNIT_BYTES,
    DynamoRequest,
    MachineUsage,
    Meter,
    Usage,
    dynamodb_item_size,
    state_transitions,
    stored_item,
)
from scripted_game import Played, play_game, roll_round_trip_ms

ROOT = Path(__file__).resolve().parents[1]
# The two games: (label, players, preset).
GAMES = (("2-player preset 5", 2, 5), ("4-player preset 7", 4, 7))
AIM_GAME_USD = 0.003  # the preset-5 game: API Gateway + Lambda + DynamoDB + Step Functions
AIM_WRITE_UNITS = 2  # a game write, at the end of a 4-player 9-column game
ACTION_AIM = "1 read + 1 conditional write"
AIMED_ACTIONS = ("roll", "write")
# In the order a game meets them.
ACTIONS = (
    "$connect",
    "create_game",
    "join_game",
    "start_game",
    "announce",
    "roll",
    "write",
    "$disconnect",
    STEP_FUNCTIONS_TASK,
)
OPERATIONS = ("GetItem", "Query", "PutItem", "UpdateItem", "TransactWriteItems")
NAIVE_TRANSITIONS_PER_TURN = 3  # one execution per turn: start, wait, wake
COLD_START_ROUNDS = 7
ROLL_ROUNDS = 20


@dataclass
class GameRun:
    label: str
    played: Played
    usage: Usage
    machines: dict[str, MachineUsage]
    lines: list[Line]
    item: dict[str, Any]  # the game item at the end (DynamoDB JSON)


def _quiet() -> None:
    """The local stack's own chatter off: the functions' warning that a flush found no
    metrics, and moto's log of the lane task ended by StopExecution at a game's end."""
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    logging.getLogger("moto").setLevel(logging.CRITICAL)
    logging.getLogger("devstack").setLevel(logging.WARNING)


def _usd(value: float) -> str:
    return f"${value:.6f}"


def _quantity(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:,.1f}"


# ------------------------------------------------------------------------ 1. whole games


def play_and_meter(prices: Prices) -> tuple[list[GameRun], list[float], dict[str, int]]:
    from devstack.stack import LocalStack

    stack = LocalStack()
    memory = {spec.logical_id: spec.memory_size or 128 for spec in stack.aws.template.functions()}
    meter = Meter(stack.aws.clock.now)
    runs: list[GameRun] = []
    with meter.installed(stack), stack:
        table = stack.aws.physical_ids["GameTable"]
        stepfunctions = stack.aws.client("stepfunctions")
        for number, (label, players, preset) in enumerate(GAMES):
            meter.reset()
            played = play_game(stack, players, preset, prefix=f"bench{number}-")
            _wait_for_disconnects(meter)
            stack.aws.settle_timers()
            usage = meter.take()
            machines = state_transitions(stepfunctions, played.game_id)
            item = stored_item(
                stack.aws.account_id,
                stack.aws.region,
                table,
                {"pk": {"S": f"GAME#{played.game_id}"}, "sk": {"S": "GAME"}},
            )
            lines = game_cost(usage, machines, memory, prices)
            runs.append(GameRun(label, played, usage, machines, lines, item))
        meter.reset()
        samples = roll_round_trip_ms(stack, ROLL_ROUNDS)
    return runs, samples, memory


def _wait_for_disconnects(meter: Meter, timeout: float = 10.0) -> None:
    """The sockets are closed: until their $disconnect has run."""
    deadline = time.monotonic() + timeout
    while meter.open_connections() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)  # the $disconnect invocations themselves


def print_costs(runs: list[GameRun], prices: Prices, memory: dict[str, int]) -> None:
    print(
        f"  AWS cost of whole games, {prices.region} list prices of {prices.as_of} "
        "(bench/prices.json), played on the local stack over WebSockets"
    )
    for run in runs:
        played = run.played
        minutes = sum(run.usage.connection_seconds) / 60 / max(len(run.usage.connection_seconds), 1)
        actions = ", ".join(f"{kind} {n}" for kind, n in played.actions.most_common())
        print(
            f"    {run.label}: {played.turns} turns, 60 s clock met every turn, ~15 s a turn on "
            f"the local clock ({minutes:.0f} min a connection); {actions}; "
            f"{played.seconds:.0f} s here, ended {played.final.get('status')}"
        )
    width = 34
    heading = "".join(f"{run.label:>29}" for run in runs)
    print(f"    {'component':<{width}}{heading}")
    for index, line in enumerate(runs[0].lines):
        if not line.in_aim and runs[0].lines[index - 1].in_aim:
            totals = "".join(f"{_usd(aimed_total(run.lines)):>29}" for run in runs)
            verdict = "met" if aimed_total(runs[0].lines) <= AIM_GAME_USD else "NOT met"
            label = "total, API Gateway to Step Functions"
            print(f"    {label:<{width}}{totals}")
            print(f"    aim: the preset-5 game at most ${AIM_GAME_USD}: {verdict}")
            print("    beside the aim (not in the total):")
        cells = "".join(
            f"{_quantity(run.lines[index].quantity):>10} {run.lines[index].unit:<6} "
            f"{_usd(run.lines[index].usd):>11}"
            for run in runs
        )
        print(f"    {line.component:<{width}}{cells}")
    for run in runs:
        in_aim = [line for line in run.lines if line.in_aim]
        top = max(in_aim, key=lambda line: line.usd)
        share = top.usd / max(aimed_total(in_aim), 1e-12)
        print(
            f"    {run.label}: largest component {top.component} ({share:.0%} of the aimed total)"
        )
    _print_traffic(runs)
    _print_lambda(runs, memory)
    _print_step_functions(runs, prices)
    _print_logs_and_traces(runs, prices)


def _print_traffic(runs: list[GameRun]) -> None:
    for run in runs:
        usage = run.usage
        largest = max(usage.outbound, default=0)
        print(
            f"    {run.label} frames: {len(usage.inbound)} in (mean {_mean(usage.inbound):.0f} B), "
            f"{len(usage.outbound)} out (mean {_mean(usage.outbound):.0f} B, largest "
            f"{largest / 1024:.1f} KB, {sum(usage.outbound) / 2**20:.1f} MB in all; a message per "
            f"started 32 KB), {usage.gone} posts gone; "
            f"{len(usage.connection_seconds)} connections"
        )


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.fmean(values) if values else 0.0


def _print_lambda(runs: list[GameRun], memory: dict[str, int]) -> None:
    print(
        "    Lambda, per function: invocations, median ms measured here, billed ms (per started ms)"
    )
    for function in sorted(memory):
        cells = []
        for run in runs:
            calls = [call for call in run.usage.invocations if call.function == function]
            median = statistics.median(call.ms for call in calls) if calls else 0.0
            cells.append(f"{len(calls):>5} x {median:5.1f} ms = {billed_ms(calls):>6} ms")
        print(f"      {function:<20} {memory.get(function, 128):>4} MB  " + "    ".join(cells))


def _print_step_functions(runs: list[GameRun], prices: Prices) -> None:
    transition = prices["stepfunctions_standard_transitions"]
    for run in runs:
        machines = "; ".join(
            f"{name.rsplit('-', 1)[-1]}: {usage.executions} executions, "
            f"{usage.transitions} StateEntered ({_states(usage)})"
            for name, usage in run.machines.items()
        )
        calls = ", ".join(f"{call} {run.usage.api_calls[call]}" for call in STEP_FUNCTIONS_CALLS)
        print(f"    {run.label} Step Functions: {machines}; API calls (free): {calls}")
    first = runs[0]
    naive = first.played.turns * NAIVE_TRANSITIONS_PER_TURN
    actual = sum(machine.transitions for machine in first.machines.values())
    print(
        f"    naive design, one execution per turn, {first.label}: {first.played.turns} x "
        f"{NAIVE_TRANSITIONS_PER_TURN} = {naive} transitions = {_usd(transition.of(naive))} "
        f"(alone {transition.of(naive) / AIM_GAME_USD:.1f}x the aim), against {actual} = "
        f"{_usd(transition.of(actual))} with the heartbeat lane"
    )


def _states(usage: MachineUsage) -> str:
    return ", ".join(f"{state} {n}" for state, n in usage.states.items()) or "-"


def _print_logs_and_traces(runs: list[GameRun], prices: Prices) -> None:
    for run in runs:
        calls = run.usage.invocations
        print(
            f"    {run.label} logs per invocation: {_mean(c.log_bytes for c in calls):.0f} B of "
            f"Powertools JSON + {_mean(c.metric_bytes for c in calls):.0f} B of EMF metrics "
            f"(sized from the metrics held: the local stack disables them) + "
            f"{prices.platform_log_bytes} B of START/END/REPORT (an estimate)"
        )
    print(
        "    traces: template.yaml's TracingMode is Active by default (PassThrough: none), and "
        "Lambda samples with X-Ray's default rule: per function the first "
        f"{prices.reservoir_per_second} request each second "
        f"and {prices.fixed_rate:.0%} of the rest (one game alone is ~1 request a second: nearly "
        f"all traced; with many games at once the reservoir is spent and ~"
        f"{prices.fixed_rate:.0%} are: "
        + ", ".join(
            _usd(prices["xray_traces_recorded"].of(len(run.usage.invocations) * prices.fixed_rate))
            for run in runs
        )
        + ")"
    )


# ------------------------------------------------------------------------ 2. DynamoDB per action


def print_per_action(runs: list[GameRun]) -> None:
    for run in runs:
        _print_action_table(run)
    last = runs[-1]
    game_writes = [
        request
        for request in last.usage.dynamodb
        if request.game_item_bytes and request.operation in WRITE_OPERATIONS
    ]
    largest = max((request.game_item_bytes for request in game_writes), default=0)
    size = dynamodb_item_size(last.item) if last.item else 0
    units = -(-size // WRITE_UNIT_BYTES)
    largest_units = -(-largest // WRITE_UNIT_BYTES)
    verdict = "met" if max(units, largest_units) <= AIM_WRITE_UNITS else "NOT met"
    print(
        f"    game item at the end of the {last.label} (9 columns) game: {size / 1024:.2f} KB = "
        f"{units} WCU a write; largest written during it {largest / 1024:.2f} KB = "
        f"{largest_units} WCU (aim: at most {AIM_WRITE_UNITS} WCU a write): {verdict}"
    )
    if last.item and "body" in last.item:
        body = last.item["body"]["B"]
        document = json.loads(zlib.decompress(body))
        parts = sorted(
            ((len(json.dumps(value)), name) for name, value in document.items()), reverse=True
        )
        largest_parts = ", ".join(f"{name} {part / 1024:.1f} KB" for part, name in parts[:3])
        print(
            f"      its body: {len(body)} B zlib-compressed from {len(zlib.decompress(body))} B of "
            f"JSON (largest parts: {largest_parts})"
        )
    print(
        "    WCU: 1 per started KB of the larger of the stored item before and after (DynamoDB's "
        "item-size rules), per item written or checked, x2 in a transaction, failed conditions "
        "included; GSI: the index entry's KB when added, removed or changed (x2 when its key "
        "changes); RCU: the items returned per started 4 KB, 0.5 eventually consistent"
    )


def _print_action_table(run: GameRun) -> None:
    requests: dict[str, list[DynamoRequest]] = {}
    for request in run.usage.dynamodb:
        requests.setdefault(request.action or request.function, []).append(request)
    counts = Counter(
        call.action for call in run.usage.invocations if call.function != "AuthorizerFunction"
    )
    counts[STEP_FUNCTIONS_TASK] = len(requests.get(STEP_FUNCTIONS_TASK, [])) or 0
    print(f"    DynamoDB per action, {run.label}, every request that reached moto; mean per action")
    heading = "".join(f"{op:>{len(op) + 2}}" for op in OPERATIONS)
    print(f"      {'action':<18}{'n':>4}{heading}  cond   WCU   GSI   RCU  aim")
    others = sorted({r.action for r in run.usage.dynamodb} - set(ACTIONS) - {""})
    for action in (*ACTIONS, *others):
        n = counts.get(action, 0)
        mine = requests.get(action, [])
        if not n and not mine:
            continue
        n = n or len(mine)
        operations = Counter(request.operation for request in mine)
        cells = "".join(f"{operations[op] / n:{len(op) + 2}.2f}" for op in OPERATIONS)
        conditional = sum(request.conditional for request in mine) / n
        wcu = sum(request.write_units for request in mine) / n
        gsi = sum(request.index_write_units for request in mine) / n
        rcu = sum(request.read_units for request in mine) / n
        aim = ""
        if action in AIMED_ACTIONS:
            reads = sum(operations[op] for op in READ_OPERATIONS) / n
            writes = sum(operations[op] for op in WRITE_OPERATIONS) / n
            met = all(abs(mean - 1) < 1e-9 for mean in (reads, writes, conditional))
            aim = f"{ACTION_AIM}: {'met' if met else 'NOT met'}"
        label = "lane task (SFN)" if action == STEP_FUNCTIONS_TASK else action
        units = f"{conditional:6.2f}{wcu:6.2f}{gsi:6.2f}{rcu:6.2f}"
        print(f"      {label:<18}{n:>4}{cells}{units}  {aim}".rstrip())


# ------------------------------------------------------------------------ 3. cold starts


def print_cold_starts() -> None:
    starts = cold_start.cold_starts(COLD_START_ROUNDS)
    cold_start.print_cold_starts(starts, COLD_START_ROUNDS)
    print("    game handler's biggest imports (python -X importtime, cumulative ms / self ms):")
    for name, cumulative, own in cold_start.import_costs("game"):
        print(f"      {cumulative:7.1f} {own:6.1f}  {name}")


def _section(title: str, body: Callable[[], None]) -> None:
    """One section; a failure is reported and the bench goes on."""
    try:
        body()
    except Exception:
        print(f"  {title}: could not be measured here:")
        print("    " + traceback.format_exc().strip().replace("\n", "\n    "))


def main() -> None:
    _quiet()
    print("game service")
    prices = load_prices()
    measured: dict[str, Any] = {}

    def games() -> None:
        runs, samples, memory = play_and_meter(prices)
        measured["samples"] = samples
        print_costs(runs, prices, memory)
        print_per_action(runs)

    _section("whole games", games)
    _section("cold start", print_cold_starts)
    if "samples" in measured:
        median = statistics.median(measured["samples"])
        print(
            f"  roll round trip through the local stack: {median:.1f} ms "
            f"(median of {len(measured['samples'])})"
        )


if __name__ == "__main__":
    main()
