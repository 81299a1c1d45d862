"""What counted usage costs on AWS: counts times the list prices of bench/prices.json (the one
place prices are kept, each with its date and source)."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meters import Invocation, MachineUsage, Usage

PRICES_FILE = Path(__file__).resolve().with_name("prices.json")
MESSAGE_BYTES = 32 * 1024  # API Gateway meters WebSocket messages in 32 KB increments


@dataclass(frozen=True, slots=True)
class Price:
    usd: float
    per: float
    unit: str
    source: str
    as_of: str

    def of(self, quantity: float) -> float:
        return quantity * self.usd / self.per


@dataclass(frozen=True, slots=True)
class Prices:
    region: str
    as_of: str
    items: Mapping[str, Price]
    reservoir_per_second: int
    fixed_rate: float
    platform_log_bytes: int

    def __getitem__(self, name: str) -> Price:
        return self.items[name]


def load_prices(path: Path = PRICES_FILE) -> Prices:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    items = {
        name: Price(
            float(entry["usd"]),
            float(entry["per"]),
            str(entry["unit"]),
            str(entry["source"]),
            str(entry["as_of"]),
        )
        for name, entry in data["prices"].items()
    }
    sampling = data["xray_default_sampling"]
    return Prices(
        region=str(data["region"]),
        as_of=str(data["as_of"]),
        items=items,
        reservoir_per_second=int(sampling["reservoir_per_second"]),
        fixed_rate=float(sampling["fixed_rate"]),
        platform_log_bytes=int(data["lambda_platform_log_bytes"]["bytes"]),
    )


@dataclass(frozen=True, slots=True)
class Line:
    component: str
    quantity: float
    unit: str
    usd: float
    in_aim: bool = True


def messages(frames: Iterable[int]) -> int:
    """Billed WebSocket messages: one per started 32 KB of each frame."""
    return sum(max(math.ceil(size / MESSAGE_BYTES), 1) for size in frames)


def billed_ms(invocations: Iterable[Invocation]) -> int:
    """Lambda bills duration per started millisecond of each invocation."""
    return sum(math.ceil(call.ms) for call in invocations)


def gb_seconds(invocations: Iterable[Invocation], memory_mb: Mapping[str, int]) -> float:
    by_function: defaultdict[str, list[Invocation]] = defaultdict(list)
    for call in invocations:
        by_function[call.function].append(call)
    return sum(
        billed_ms(calls) / 1000 * memory_mb.get(function, 128) / 1024
        for function, calls in by_function.items()
    )


def sampled_traces(invocations: Iterable[Invocation], reservoir: int, rate: float) -> float:
    """Traces X-Ray's default rule records, per function: the first `reservoir` requests of each
    second (on the local clock), then `rate` of the rest."""
    per_second: Counter[tuple[str, int]] = Counter(
        (call.function, int(call.at.timestamp())) for call in invocations
    )
    return sum(min(n, reservoir) + rate * max(n - reservoir, 0) for n in per_second.values())


def log_bytes(usage: Usage, platform_bytes: int) -> int:
    """What the functions send to CloudWatch Logs: the Powertools lines, the EMF metric lines
    (printed on AWS; disabled locally, so sized from the metrics held), and Lambda's own
    START/END/REPORT lines."""
    return sum(
        call.log_bytes + call.metric_bytes + platform_bytes for call in usage.invocations
    ) + (usage.stray_log_bytes)


def game_cost(
    usage: Usage,
    machines: Mapping[str, MachineUsage],
    memory_mb: Mapping[str, int],
    prices: Prices,
) -> list[Line]:
    """Each component's quantity and cost. The aim covers API Gateway, Lambda, DynamoDB and
    Step Functions; logs and traces are beside it."""
    message_count = messages(usage.inbound) + messages(usage.outbound)
    minutes = sum(max(math.ceil(seconds / 60), 1) for seconds in usage.connection_seconds)
    requests = len(usage.invocations)
    compute = gb_seconds(usage.invocations, memory_mb)
    write_units = sum(r.write_units + r.index_write_units for r in usage.dynamodb)
    read_units = sum(r.read_units for r in usage.dynamodb)
    transitions = sum(machine.transitions for machine in machines.values())
    logged = log_bytes(usage, prices.platform_log_bytes)
    traces = sampled_traces(usage.invocations, prices.reservoir_per_second, prices.fixed_rate)
    return [
        Line(
            "API Gateway messages",
            message_count,
            "msgs",
            prices["websocket_messages"].of(message_count),
        ),
        Line(
            "API Gateway connection minutes",
            minutes,
            "min",
            prices["websocket_connection_minutes"].of(minutes),
        ),
        Line("Lambda requests", requests, "req", prices["lambda_requests"].of(requests)),
        Line("Lambda compute", compute, "GB-s", prices["lambda_gb_seconds_arm64"].of(compute)),
        Line(
            "DynamoDB writes",
            write_units,
            "WRU",
            prices["dynamodb_write_request_units"].of(write_units),
        ),
        Line(
            "DynamoDB reads",
            read_units,
            "RRU",
            prices["dynamodb_read_request_units"].of(read_units),
        ),
        Line(
            "Step Functions transitions",
            transitions,
            "trans",
            prices["stepfunctions_standard_transitions"].of(transitions),
        ),
        Line(
            "CloudWatch Logs ingestion",
            logged / 1024,
            "KB",
            prices["cloudwatch_logs_ingestion"].of(logged),
            in_aim=False,
        ),
        Line(
            "X-Ray traces, default sampling",
            traces,
            "traces",
            prices["xray_traces_recorded"].of(traces),
            in_aim=False,
        ),
        Line(
            "X-Ray traces, every invocation",
            requests,
            "traces",
            prices["xray_traces_recorded"].of(requests),
            in_aim=False,
        ),
    ]


def aimed_total(lines: Iterable[Line]) -> float:
    return sum(line.usd for line in lines if line.in_aim)
