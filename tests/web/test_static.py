"""The page is served by the gateway itself, as it is on disk: no build step, nothing fetched from elsewhere."""

from __future__ import annotations

import re

import httpx

from service.gateway.app import WEB_DIRECTORY
from tests.servers import Start

FILES = sorted(path.relative_to(WEB_DIRECTORY).as_posix() for path in WEB_DIRECTORY.rglob("*") if path.is_file())
IMPORT = re.compile(r"""(?:from|import)\s+["'](\.{1,2}/[^"']+)["']""")


async def test_the_gateway_serves_the_page_and_its_modules_at_play(start: Start, gateway) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    page = await client.get("/play")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/play/app.js">' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"], "the page loads nothing from elsewhere"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert {"index.html", "app.js", "style.css", "table.js", "games/index.js", "games/generic.js"} <= set(FILES)
    for name in FILES:
        answer = await client.get(f"/play/{name}")
        assert answer.status_code == 200, name
        if name.endswith(".js"):
            assert answer.headers["content-type"].startswith("text/javascript"), name
            for target in IMPORT.findall(answer.text):  # every module a module imports is there too
                resolved = (WEB_DIRECTORY / name).parent / target
                assert resolved.resolve().is_file(), f"{name} imports {target}, which is missing"
        assert not re.search(r"https?://", answer.text), f"{name} names another site"
    assert (await client.get("/play/nothing.js")).status_code == 404
    assert not any(path.startswith("/play") for path in (await client.get("/schema/openapi.json")).json()["paths"])


async def test_a_gateway_without_the_page_answers_404(start: Start, gateway) -> None:
    client: httpx.AsyncClient = await gateway(await start(), web=False)
    assert (await client.get("/play")).status_code == 404
    assert (await client.get("/v1/games")).status_code == 200
