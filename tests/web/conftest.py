"""The browser tests' fixtures: a headless Chromium per test (in the test's event loop, beside the servers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, Pages, artifacts_dir, async_playwright, missing


@pytest.fixture
async def pages() -> AsyncIterator[Pages]:
    """Pages of one headless Chromium; the test fails if any of them raised an uncaught error."""
    reason = missing()
    if reason:
        pytest.fail(f"the browser tests need a browser (CI=true: they may not skip): {reason}")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        made = Pages(browser)
        try:
            yield made
        finally:
            await browser.close()
    assert not made.errors, f"the page raised errors: {made.errors}"


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    return artifacts_dir(tmp_path)
