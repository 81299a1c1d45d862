"""Keeps botocore's data for the services the functions call (botocore-services.txt) and deletes
the rest: 28 MB of the layer, and botocore lists every service's directory when it makes its
first client (a tenth of a function's cold start).

    python trim_botocore.py PATH/TO/botocore      # the dependencies layer's Makefile runs this
"""

import shutil
import sys
from pathlib import Path

SERVICES_FILE = Path(__file__).with_name("botocore-services.txt")


def kept_services() -> set[str]:
    return set(SERVICES_FILE.read_text(encoding="utf-8").split())


def trim(botocore_dir: Path) -> list[str]:
    """Deletes the data of every other service; the names deleted."""
    kept = kept_services()
    removed = []
    for service in sorted((botocore_dir / "data").iterdir()):
        if service.is_dir() and service.name not in kept:
            shutil.rmtree(service)
            removed.append(service.name)
    missing = kept - {path.name for path in (botocore_dir / "data").iterdir()}
    if missing:
        raise SystemExit(f"trim_botocore: botocore has no data for {sorted(missing)}")
    return removed


if __name__ == "__main__":
    trim(Path(sys.argv[1]))
