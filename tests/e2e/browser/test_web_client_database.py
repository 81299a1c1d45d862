"""The open game database in the web client (issue 32): a month exported by the monthly job is
listed on the "Game database" page (reached from the boards' tabs) with its licence and how to
verify it, and its file's link downloads the file the listing describes."""

import gzip
import hashlib
import re
from datetime import timedelta
from typing import Any

from playwright.sync_api import expect
from yamb.opendb.months import month_end, month_of

from devstack.stack import LocalStack
from devstack.streams import wait_until
from tests.e2e.browser.accessibility import assert_accessible
from tests.e2e.browser.test_web_client import NewPage, sign_in
from tests.e2e.test_opendb_e2e import _play


def test_web_client_game_database_lists_a_month_and_its_link_downloads(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a game of ana and ben played to its end, staged, and its month exported
    ana, ben = players("ana-wdb"), players("ben-wdb")
    game_id = _play(ana, ben, chat=False)["gameId"]
    month = month_of(web_stack.aws.clock.now())

    def staged() -> bool:
        items = web_stack.aws.client("dynamodb").query(
            TableName=web_stack.aws.physical_ids["GameTable"],
            IndexName="gsi1",
            KeyConditionExpression="gsi1pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"OPENDB#{month}"}},
        )["Items"]
        return any(item["gsi1sk"]["S"].endswith(f"#{game_id}") for item in items)

    assert wait_until(staged, timeout=20)
    exported = web_stack.run_job(
        "OpenDbJobsFunctionMonthly", now=month_end(month) + timedelta(hours=1)
    )
    page = new_page()
    sign_in(page, web_stack, ana.name)

    # when she opens the boards, then the game database's tab
    page.click('#nav a[data-screen="boards"]')
    page.click("#boards-tab-database")

    # then the month is listed with its file, its SHA-256, the licence and how to verify
    expect(page).to_have_url(re.compile(r"#/database$"))
    row = page.locator(f'#database-table tbody tr[data-month="{month}"]')
    expect(row.locator(".sha256")).to_have_text(exported["sha256"][0])
    expect(page.locator("#database-licence-link")).to_contain_text("CC0 1.0")
    expect(page.locator("#database-verify")).to_contain_text("yamb verify --game")
    assert_accessible(page, "database")
    # and its link downloads the very file
    with page.expect_download() as downloading:
        row.locator("a.database-file").click()
    download = downloading.value
    path = download.path()
    assert path is not None
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == exported["sha256"][0]
    assert game_id.encode() in gzip.decompress(data)
