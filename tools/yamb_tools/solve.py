"""`yamb solve GRID`: solves a family grid, writes its table, and says how long and how big."""

import hashlib
import io
import sys
import time
from pathlib import Path

import numpy as np
from yamb.solver import storage
from yamb.solver.api import Solver
from yamb.solver.model import State, model_for


def sizes(solver: Solver) -> dict[str, int]:
    """Bytes of the reachable states' values stored as float32, float16, a plain compressed npz
    of the float32 values, and the table format (byte planes, compressed)."""
    model = solver.model
    values = solver.values[model.reachable()]
    plain = io.BytesIO()
    np.savez_compressed(plain, values=values.astype(np.float32))
    return {
        "float32": values.size * 4,
        "float16": values.size * 2,
        "npz_float32": len(plain.getvalue()),
        "table": len(storage.encode(model, solver.values)),
    }


def solve(grid_id: str, out: Path | None) -> int:
    directory = storage.cache_dir() if out is None else out
    start = time.perf_counter()
    solver = Solver.build(grid_id, lambda line: print(line, file=sys.stderr, flush=True))
    seconds = time.perf_counter() - start
    model = model_for(grid_id)
    path = solver.save(directory)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    expected = solver.expected(State(0))
    print(f"{grid_id}: expected score {expected:.4f}, built in {seconds:.1f} s")
    print(f"  states: {int(model.reachable().sum()):,} reachable of {model.size:,}")
    for name, size in sizes(solver).items():
        print(f"  {name:12} {size:>10,} bytes")
    print(f"  wrote {path} (sha256 {digest[:16]}..., format {storage.FORMAT_VERSION})")
    return 0
