"""The files of the open database: a month's games as gzip JSON Lines.

A month's file is a function of its games alone: lines in the order the games ended (then by
id), gzip with no name and no time in its header, so an export run again writes the very same
bytes (the same SHA-256)."""

import gzip
import hashlib
from collections.abc import Iterable

from yamb.opendb.lines import GameLine


def ordered(lines: Iterable[GameLine]) -> list[GameLine]:
    return sorted(lines, key=lambda line: (line.ended_at, line.id))


def jsonl(lines: Iterable[GameLine]) -> bytes:
    """One compact JSON object per line, `\\n` after each, in the export's order."""
    return b"".join(line.model_dump_json(by_alias=True).encode() + b"\n" for line in ordered(lines))


def month_file(lines: Iterable[GameLine]) -> bytes:
    """The month's file: its JSON Lines gzipped with a fixed header (no name, time 0)."""
    return gzip.compress(jsonl(lines), compresslevel=9, mtime=0)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
