"""A solved grid on disk: `GRID.npz`, and beside it `GRID.npz.sha256` (sha256sum's format).

The npz holds the format version, the grid id, the fingerprint of the rules it was solved for
(Model.fingerprint: every score the solver read), and the reachable states' values in state
order as float32, byte-shuffled (the four bytes of each value in four planes), which deflate
compresses about twice as well as plain floats. Loading checks the hash first, then the
version, the grid and the rules, and raises TableError saying which did not match.
"""

import hashlib
import io
import os
import zipfile
from pathlib import Path

import numpy as np

from yamb.solver.model import FloatArray, Model

FORMAT_VERSION = 1
ENCODING = "float32-byte-planes"
SUFFIX = ".npz"
HASH_SUFFIX = ".sha256"
# Committed tables (small enough to ship), then the local cache of the larger ones.
TABLES = Path(__file__).resolve().parent / "tables"
CACHE_ENV = "YAMB_SOLVER_CACHE"


class TableError(Exception):
    """A stored table is missing, altered, or made for another format or other rules."""


def cache_dir() -> Path:
    """Where `yamb solve` writes by default: $YAMB_SOLVER_CACHE, else the checkout's
    .cache/solver (kept out of git)."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parents[3] / ".cache" / "solver"


def search_dirs() -> tuple[Path, ...]:
    return (TABLES, cache_dir())


def table_path(directory: Path, grid_id: str) -> Path:
    return directory / f"{grid_id}{SUFFIX}"


def encode(model: Model, values: FloatArray) -> bytes:
    """The npz file's bytes for a grid's values (indexed by state number)."""
    reachable = values[model.reachable()].astype("<f4")
    planes = reachable.view(np.uint8).reshape(-1, 4).T.copy()
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        format=np.array(FORMAT_VERSION, dtype=np.int64),
        grid=np.array(model.grid.id),
        rules=np.array(model.fingerprint()),
        encoding=np.array(ENCODING),
        values=planes,
    )
    return buffer.getvalue()


def save(model: Model, values: FloatArray, directory: Path) -> Path:
    """Writes GRID.npz and its GRID.npz.sha256 (each through a temporary file, then renamed)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = table_path(directory, model.grid.id)
    data = encode(model, values)
    _replace(path, data)
    digest = hashlib.sha256(data).hexdigest()
    _replace(_hash_path(path), f"{digest}  {path.name}\n".encode())
    return path


def load(model: Model, path: Path) -> FloatArray:
    """The values a table holds, indexed by state number; TableError when it does not check."""
    try:
        data = path.read_bytes()
        recorded = _hash_path(path).read_text(encoding="ascii").split()
    except FileNotFoundError as error:
        raise TableError(f"{error.filename}: no such file") from None
    digest = hashlib.sha256(data).hexdigest()
    if not recorded or recorded[0] != digest:
        raise TableError(
            f"{path}: SHA-256 {digest} does not match the recorded "
            f"{recorded[0] if recorded else '(none)'}: the table is corrupted or altered; "
            f"rebuild it with `yamb solve {model.grid.id}`"
        )
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            version = int(stored["format"])
            if version != FORMAT_VERSION:
                raise TableError(
                    f"{path}: format version {version}, this solver reads {FORMAT_VERSION}; "
                    f"rebuild it with `yamb solve {model.grid.id}`"
                )
            grid, rules = str(stored["grid"]), str(stored["rules"])
            encoding, planes = str(stored["encoding"]), stored["values"]
    except (KeyError, ValueError, OSError, zipfile.BadZipFile) as error:
        raise TableError(f"{path}: not a solver table ({error})") from None
    if grid != model.grid.id:
        raise TableError(f"{path}: a table of the {grid} grid, not {model.grid.id}")
    if rules != model.fingerprint():
        raise TableError(
            f"{path}: solved for other {grid} rules than these; rebuild it with `yamb solve {grid}`"
        )
    reachable = model.reachable()
    count = int(reachable.sum())
    if encoding != ENCODING or planes.dtype != np.uint8 or planes.shape != (4, count):
        raise TableError(f"{path}: values {encoding} {planes.shape}, expected {(4, count)}")
    values = np.zeros(model.size)
    values[reachable] = np.ascontiguousarray(planes.T).view("<f4").ravel()
    return values


def _hash_path(path: Path) -> Path:
    return path.with_name(path.name + HASH_SUFFIX)


def _replace(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
