"""The gateway's OpenAPI document as a release records it (``make release-openapi``): written with sorted keys and an
indent, so that the file is the same for the same surface and a change to it reads as a plain diff.

``python -m service.gateway.release FILE`` writes it; tests/gateway/test_released_rest.py checks that the gateway
still serves everything the released file names, the same way."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from service.gateway.app import create_app


def document() -> dict[str, Any]:
    """The OpenAPI document of a gateway made with the defaults (the target is never called)."""
    return create_app("127.0.0.1:1").openapi_schema.to_schema()  # type: ignore[no-any-return]


def text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m service.gateway.release FILE", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(text(document()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
