"""What every test shares: how a parallel run (pytest-xdist, `make test`) splits them.

Under `-n N --dist loadfile` a test goes with its file: a module's fixtures (a moto mock and its
tables, a local stack on free ports) are built once, in one worker, as in a serial run. The
browser tests go together too, all of them in one worker and in a row: Playwright's synchronous
API is started once per process and stopped when the run leaves them
(tests/e2e/browser/conftest.py). (xdist's own `--dist loadgroup` cannot do this with pytest 9:
the group it appends to a test's node id is lost.)
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from testkit.catalogues import Languages, use_catalogues

BROWSER_TESTS = "tests/e2e/browser/"


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or all the browser tests."""
    if nodeid.startswith(BROWSER_TESTS):
        return BROWSER_TESTS
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling  # only under xdist

    class FileScheduling(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    # The files go in the order collected (e2e, integration, unit), not by their number of tests:
    # the long e2e files start first, and the short unit files fill the workers' ends.
    config.option.loadscopereorder = False
    return FileScheduling(config, log)


@pytest.fixture
def catalogue(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[Languages], None]:
    """`catalogue({"fr": {"it is not your turn": "ce n'est pas votre tour"}})`: for this test,
    the server speaks from these compiled translations only (every other sentence in English),
    whatever the .po files hold yet (testkit.catalogues)."""

    def install(languages: Languages) -> None:
        use_catalogues(monkeypatch, tmp_path / "locales", languages)

    return install
