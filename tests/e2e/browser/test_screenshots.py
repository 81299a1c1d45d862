"""Screenshots only when asked: `make screenshots` walks every screen into
docs/screenshots/screens/ (tests/e2e/browser/screenshots.py), and a normal test run writes
nothing into the working tree."""

import os
import struct
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from devstack.stack import PROJECT_ROOT, LocalStack
from tests.e2e.browser.screenshots import walk


def tree_status() -> str:
    """What git sees changed or new in docs/ and client/ (the other suites' workers may write
    their own files meanwhile elsewhere, such as coverage data)."""
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "docs", "client"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


@pytest.mark.skipif(
    os.environ.get("YAMB_SCREENSHOTS") == "docs", reason="asked to renew docs/screenshots"
)
def test_screenshots_of_a_test_run_go_to_a_temporary_folder(screenshot_dir: Path) -> None:
    # given a normal test run (YAMB_SCREENSHOTS not set to docs)
    # when the browser tests ask where to save their screenshots
    # then it is a folder outside the project's tree
    assert Path(PROJECT_ROOT) not in screenshot_dir.resolve().parents


def test_screenshots_walker_writes_each_screen_asked_into_its_folder_only(
    web_stack: LocalStack, browser: Browser, tmp_path: Path
) -> None:
    # given the working tree as it is before
    before = tree_status()

    # when the walker takes the sign-in and the lobby at a phone's width, dark, into a folder
    saved = walk(
        browser,
        web_stack,
        tmp_path,
        widths=(390,),
        themes=("dark",),
        only=("signin", "lobby"),
        name="walker",
    )

    # then each screen has its file there, a phone's width wide at least
    assert [path.name for path in saved] == ["signin-390-dark.png", "lobby-390-dark.png"]
    for path in saved:
        assert path.parent == tmp_path and png_size(path)[0] >= 390
    # and the working tree has not changed
    assert tree_status() == before
