"""The pages the gateway serves as static files, written by hand (they call no RPC themselves): the browser front-end
at /play (service/gateway/web/) and the operators' page at /ops (service/gateway/ops/). Plain HTML, CSS and
JavaScript modules served as they are (no build step), revalidated on every load so a new release's files are used at
once; each loads nothing from anywhere else and talks to this gateway only, calling its REST routes like any other
client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Response
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

# The browser front-end (service/gateway/web/) at /play, and the operators' page (service/gateway/ops/) at /ops.
WEB_DIRECTORY = Path(__file__).parent / "web"
WEB_PATH = "/play"
OPS_DIRECTORY = Path(__file__).parent / "ops"
OPS_PATH = "/ops"
# Each page loads nothing from anywhere else and talks to this gateway only.
WEB_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _page_headers(response: Response[Any]) -> Response[Any]:
    response.headers.update(WEB_HEADERS)
    return response


def _page(path: str, directory: Path, name: str) -> Any:
    return create_static_files_router(
        path=path,
        directories=[directory],
        html_mode=True,
        name=name,
        cache_control=CacheControlHeader(no_cache=True),
        after_request=_page_headers,
    )


def web_router() -> Any:
    """The browser front-end at /play: the page and its modules; the page holds no game rules and calls the REST
    routes like any other client."""
    return _page(WEB_PATH, WEB_DIRECTORY, "web")


def ops_router() -> Any:
    """The operators' page at /ops: read-only, calling the operators' routes with the key typed in (kept in the tab's
    sessionStorage, sent as X-Operator-Key); the page itself holds no secret."""
    return _page(OPS_PATH, OPS_DIRECTORY, "ops")
