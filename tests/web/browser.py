"""Headless Chromium through Playwright for the browser tests: Debian's Chromium (Playwright cannot download its own
browsers here), launched with the flags that keep it from calling out. The tests skip without it, except under
CI=true, where a missing browser fails them."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

try:
    from playwright.async_api import Browser, BrowserContext, Page, async_playwright, expect
    from playwright.async_api import Error as PlaywrightError
except ImportError:  # the tests skip (or, under CI, fail) below
    Browser = BrowserContext = Page = async_playwright = expect = None  # type: ignore[assignment,misc]
    PlaywrightError = Exception  # type: ignore[assignment,misc]

CHROMIUM = os.environ.get("KICKOFF_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ON_CI = os.environ.get("CI") == "true"


def missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    if async_playwright is None:
        return "playwright is not installed (pip install -e '.[dev]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return ""


def require_browser() -> None:
    """Skips the calling test module when there is no browser, except under CI=true (the tests then fail)."""
    reason = missing()
    if reason and not ON_CI:
        pytest.skip(reason, allow_module_level=True)


def artifacts_dir(tmp_path: Path) -> Path:
    """Where screenshots go: $KICKOFF_TEST_ARTIFACTS if set (kept after the run), else the test's tmp_path."""
    folder = Path(os.environ["KICKOFF_TEST_ARTIFACTS"]) if os.environ.get("KICKOFF_TEST_ARTIFACTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


AXE = Path(__file__).parents[2] / "node_modules" / "axe-core" / "axe.min.js"  # from the npm registry (make install)
AXE_RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


async def violations(page: Page) -> list[str]:
    """Each WCAG 2.1 A/AA rule that axe-core finds the page breaking now, with the first element that breaks it.
    (Evaluated through the browser's protocol: the page's Content-Security-Policy refuses inline scripts, rightly.)"""
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.evaluate(AXE.read_text() + ";0")
    result = await page.evaluate("(rules) => axe.run(document, rules)", AXE_RULES)
    return [f"{v['id']} ({v['impact']}): {v['nodes'][0]['html'][:160]}" for v in result["violations"]]


async def screenshot(page: Page, folder: Path, name: str) -> Path:
    """Saves the screen as {name}.png, once axe-core has judged it: every screen the tests save is also checked
    against WCAG 2.1 A and AA, and a violation fails the test that drew it."""
    assert await violations(page) == [], f"the screen {name!r} breaks WCAG rules"
    path = folder / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    assert path.exists() and path.stat().st_size > 0, f"{path} is empty"
    return path


# Collects what the page draws after each update (tests/web/leaks.py checks it): the table's text with the view's
# version it shows. The page announces each drawing with a `kickoff:render` event.
RECORD_RENDERS = """
window.__renders = [];
document.addEventListener("kickoff:render", (event) => {
  const table = document.querySelector('[data-testid="table"]');
  window.__renders.push({ ...event.detail, text: table ? table.innerText : "" });
});
"""


# The seat seeds a test's page sends (deal.js: 8 bytes of crypto.getRandomValues) are the same from run to run, as the
# test servers' room ids and secrets are: a fair deal mixes them into the game's seed, so a game a page joins is dealt
# the same each run. Each page counts its own: 5eed000100000001, 5eed000100000002... Every other draw stays random
# (a device id's 16 bytes: two guests never share one).
FIXED_SEAT_SEEDS = """
(() => {
  const random = crypto.getRandomValues.bind(crypto);
  let drawn = 0;
  crypto.getRandomValues = (array) => {
    if (!(array instanceof Uint8Array) || array.length !== 8) return random(array);
    drawn += 1;
    array.set([0x5e, 0xed, 0x00, 0x01, 0, 0, (drawn >> 8) & 0xff, drawn & 0xff]);
    return array;
  };
})();
"""


# A page's clock standing still from before it loads (Playwright's clock: Date, performance.now and every timer of the
# page): time on the page moves only when the test moves it (`page.clock.run_for` fires the timers due as it goes), so
# what the page shows of time never depends on how fast the machine runs the test. What runs on the page's timers or
# animation frames waits with them: axe-core's checks (screenshot), wait_for_function's polling.
STILL = datetime(2030, 1, 1, tzinfo=UTC)


async def stand_still(page: Page) -> Page:
    """Stops the page's clock at STILL (installed a minute before: it jumps there, then stands); returns the page."""
    await page.clock.install(time=STILL - timedelta(minutes=1))
    await page.clock.pause_at(STILL)
    return page


class Pages:
    """New pages in fresh contexts (each its own sessionStorage), with every uncaught error they raise recorded."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.errors: list[str] = []

    async def new(
        self, *, record: bool = False, width: int = 1280, height: int = 900, random_seeds: bool = False
    ) -> Page:
        """A page in a fresh context; ``record``: what it draws is collected (RECORD_RENDERS); ``random_seeds``: its
        seat seeds are the browser's own random ones, not FIXED_SEAT_SEEDS."""
        context: BrowserContext = await self.browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(20_000)
        page = await context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        if not random_seeds:
            await page.add_init_script(FIXED_SEAT_SEEDS)
        if record:
            await page.add_init_script(RECORD_RENDERS)
        return page
