"""A real browser: headless Chromium (Debian's package, driven by Playwright, nothing downloaded)
clicks "Materialize all" in the Dagster UI, and renders the overview page."""

import contextlib
import os
import re
import shutil

import duckdb
import pytest
from playwright.sync_api import Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from pipeline.lib.overview import write_overview
from pipeline.lib.schema import TABLES
from tests.conftest import REPO_ROOT, SEEDS
from tests.e2e.conftest import RUN_SECONDS, STARTUP_SECONDS

pytestmark = pytest.mark.e2e

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = REPO_ROOT / "test-artifacts"
UI_LOAD_MS = STARTUP_SECONDS * 1000
RUN_MS = RUN_SECONDS * 1000
# How long the welcome dialog of a fresh instance may take to come after the page has loaded.
WELCOME_MS = 5_000


def chromium_path() -> str:
    """The system's chromium; without one the browser tests fail in CI and are skipped elsewhere."""
    path = shutil.which("chromium")
    if path is None:
        reason = "chromium is not on PATH; install Debian's package: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (.ci/run installs it)")
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_path()


@pytest.fixture
def page(chromium):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            yield browser.new_page(viewport={"width": 1400, "height": 900})
        finally:
            browser.close()


def _save_screenshot(page: Page, tmp_path, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copyfile(path, ARTIFACTS / name)


def test_materialize_all_in_the_dagster_ui_publishes_the_warehouse(dagster_dev, page, tmp_path):
    port, warehouse, _ = dagster_dev
    # A fresh DAGSTER_HOME greets the first visit with a "Join the Dagster community" dialog. It can
    # come late, over the backfill dialog, where a normal click on Skip waits on that dialog's
    # overlay for ever: dismiss it first when it comes, and by force if it comes later.
    skip = page.get_by_role("button", name="Skip")
    welcome = page.get_by_text("Join the Dagster community")
    page.add_locator_handler(welcome, lambda: skip.click(force=True))
    page.goto(f"http://127.0.0.1:{port}/asset-groups")
    materialize = page.get_by_role("button", name="Materialize all")
    materialize.wait_for(timeout=UI_LOAD_MS)
    with contextlib.suppress(PlaywrightTimeoutError):
        welcome.wait_for(timeout=WELCOME_MS)
        skip.click(force=True)
    materialize.click(timeout=UI_LOAD_MS)
    # Partitioned assets open the backfill dialog: every partition, then launch.
    page.get_by_role("button", name="All", exact=True).click()
    page.get_by_text(f"{len(list(SEEDS.glob('*.txt')))} partitions", exact=True).wait_for()
    page.get_by_role("button", name="Launch backfill").click()
    # The toast links to the backfill's page, whose status tag ends in Succeeded (or a failure).
    page.get_by_role("link", name="View", exact=True).click(timeout=UI_LOAD_MS)
    page.wait_for_url("**/runs/b/*", timeout=UI_LOAD_MS)
    status = page.get_by_text("Status", exact=True).locator("xpath=..")
    try:
        expect(status).to_contain_text(re.compile("Succeeded|Failed|Canceled|failures"), timeout=RUN_MS)
    finally:
        _save_screenshot(page, tmp_path, "dagster-ui-backfill.png")
    expect(status).to_contain_text("Succeeded")

    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM papers").fetchone() == (32,)
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (38,)
        top_hit = con.execute(
            "SELECT paper_id FROM search_papers('mesh compression', max_results := 1)"
        ).fetchall()
        sparse_implicit = con.execute(
            "SELECT paper_id FROM papers WHERE abstract_clean LIKE '%Sparse Implicit Representation%'"
        ).fetchall()
        assert top_hit == sparse_implicit
    assert (warehouse / "reports" / "index.html").is_file()

    # The asset page shows the schema module's column descriptions.
    page.goto(f"http://127.0.0.1:{port}/assets/papers")
    page.get_by_text("Column name").first.wait_for(timeout=UI_LOAD_MS)
    # The column table fills in after its header; wait for the rows before reading them all.
    expect(page.locator("body")).to_contain_text(TABLES["papers"].columns[-1].description, timeout=UI_LOAD_MS)
    shown = page.inner_text("body")
    assert [c.name for c in TABLES["papers"].columns if c.description not in shown] == []


def test_overview_page_draws_every_chart_offline(built_warehouse, page, tmp_path):
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    (warehouse / "reports").mkdir(parents=True)
    for name in ("papers.duckdb", "manifest.json"):
        shutil.copyfile(built_warehouse / name, warehouse / name)
    validation = warehouse / "reports" / "validation.html"
    if (built_warehouse / "reports" / "validation.html").is_file():
        shutil.copyfile(built_warehouse / "reports" / "validation.html", validation)
    else:
        validation.write_text("<!DOCTYPE html><title>Validation</title><p>stand-in</p>\n", encoding="utf-8")
    index = write_overview(warehouse)
    requested, errors = [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(index.as_uri())

    charts = page.locator("svg.chart")
    assert charts.count() == 8
    for chart in charts.all():
        name = chart.get_attribute("id")
        bars = chart.locator("rect.bar")
        assert bars.count() == int(chart.get_attribute("data-bars")), name
        for bar in bars.all():
            if bar.get_attribute("data-value") != "0":
                box = bar.bounding_box()
                assert box is not None and box["width"] > 0 and box["height"] > 0, name
    assert page.locator("#chart-venues rect.bar").count() >= 1
    assert page.locator("#counts").inner_text().split()[:2] == ["32", "papers"]
    _save_screenshot(page, tmp_path, "overview.png")

    page.locator("#validation-link").click()
    assert page.url == validation.as_uri()
    assert errors == []
    assert [url for url in requested if not url.startswith("file://")] == []


def test_without_chromium_browser_tests_fail_in_ci_and_skip_elsewhere(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="chromium is not on PATH"):
        chromium_path()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        chromium_path()
