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

# The browser front-end (service/gateway/web/): plain HTML, CSS and JavaScript modules served as they are, at /play.
WEB_DIRECTORY = Path(__file__).parent / "web"

WEB_PATH = "/play"

# The page loads nothing from anywhere else and talks to this gateway only.
WEB_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# The operators' page (service/gateway/ops/): plain HTML, CSS and a JavaScript module, no build step, nothing fetched
# from anywhere else; served as /play is, with the same headers.
OPS_DIRECTORY = Path(__file__).parent / "ops"

OPS_PATH = "/ops"

OPS_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _web_headers(response: Response[Any]) -> Response[Any]:
    response.headers.update(WEB_HEADERS)
    return response


def web_router() -> Any:
    """The browser front-end at /play: the page and its modules, as static files (no build step); the page holds no
    game rules and calls the routes above like any other client. Revalidated on every load, so a new release's files
    are used at once."""
    return create_static_files_router(
        path=WEB_PATH,
        directories=[WEB_DIRECTORY],
        html_mode=True,
        name="web",
        cache_control=CacheControlHeader(no_cache=True),
        after_request=_web_headers,
    )


def _ops_headers(response: Response[Any]) -> Response[Any]:
    response.headers.update(OPS_HEADERS)
    return response


def ops_router() -> Any:
    """The operators' page at /ops: static files (no build step), read-only, calling the routes above with the key
    typed in (kept in the tab's sessionStorage, sent as X-Operator-Key); the page itself holds no secret."""
    return create_static_files_router(
        path=OPS_PATH,
        directories=[OPS_DIRECTORY],
        html_mode=True,
        name="ops",
        cache_control=CacheControlHeader(no_cache=True),
        after_request=_ops_headers,
    )
