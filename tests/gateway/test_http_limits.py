"""The gateway's HTTP limits (service/gateway/http.py) against real sockets on loopback; plain uvicorn fails each test.

The server runs in a thread of its own (its event loop must not wait on these blocking sockets); every wait is a
socket read with a timeout, never a sleep.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from service.gateway import http
from service.gateway.http import HttpLimits

PARTIAL_HEAD = b"GET / HTTP/1.1\r\nHost: test\r\nX-Slow: "
REQUEST = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n"
CLOSING_REQUEST = b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"


def _limits(**given: Any) -> HttpLimits:
    """Limits for a test: long timeouts, so that only the limit a test is about ever acts."""
    defaults = {"max_header_bytes": 16384, "header_timeout": 30.0, "max_connections_per_client": 64}
    return HttpLimits(**(defaults | given), limit_concurrency=4096, keep_alive_timeout=30.0)


class App:
    """An ASGI app that answers 200 "ok" and records each request's path."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})


@contextmanager
def _serving(config: uvicorn.Config) -> Iterator[int]:
    """``config`` served on a loopback port (yielded) from a thread; connections queue until the loop accepts them."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen(2048)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()
    assert not thread.is_alive(), "the server did not stop"


def _serve(limits: HttpLimits, app: App) -> Any:
    return _serving(http.config(app, "127.0.0.1", 0, limits, lifespan="off"))


def _connect(port: int, source: str = "127.0.0.1", timeout: float = 5.0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One response read off ``sock``: status, headers (lower-case names) and the content-length body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before a whole response head: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    while len(body) < int(headers["content-length"]):
        chunk = sock.recv(65536)
        assert chunk, "the connection closed inside the body"
        body += chunk
    return int(status_line.split()[1]), headers, body


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (EOF or reset) with nothing more to read; waits up to the socket's timeout."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def _assert_problem(response: tuple[int, dict[str, str], bytes], status: int, reason: str) -> dict[str, Any]:
    got, headers, body = response
    assert got == status
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    problem = json.loads(body)
    assert problem["type"] == f"urn:kickoff:problem:{reason}"
    assert (problem["status"], problem["reason"]) == (status, reason)
    assert problem["title"] and problem["detail"]
    return problem


def test_a_head_over_the_limit_gets_431_and_never_reaches_the_app() -> None:
    app = App()
    with _serve(_limits(max_header_bytes=16384), app) as port:
        with _connect(port) as sock:
            head = PARTIAL_HEAD + b"x" * 20_000 + b"\r\n\r\n"
            with suppress(OSError):  # the server closes before the end: its answer is still to be read
                for start in range(0, len(head), 1024):
                    sock.sendall(head[start : start + 1024])
            problem = _assert_problem(_response(sock), 431, "header_too_large")
            assert "16384" in problem["detail"]
            assert _closed(sock)
        assert app.paths == []
        with _connect(port) as sock:  # the app does answer a request within the limit
            sock.sendall(b"GET /fits HTTP/1.1\r\nHost: test\r\nX-Fits: " + b"x" * 16000 + b"\r\n\r\n")
            assert _response(sock)[0] == 200
        assert app.paths == ["/fits"]


def test_a_16_mb_header_is_cut_off_near_the_limit() -> None:
    limits = _limits(max_header_bytes=16384)
    read: list[int] = []

    class Counting(http.protocol_class(limits)):  # type: ignore[misc]
        def data_received(self, data: bytes) -> None:
            read.append(len(data))
            super().data_received(data)

    config = http.config(App(), "127.0.0.1", 0, limits, lifespan="off", http=Counting)
    piece = b"x" * 65536
    sent = 0
    with _serving(config) as port, _connect(port) as sock:
        sock.sendall(PARTIAL_HEAD)
        with pytest.raises(OSError) as cut:  # reset or broken pipe: the server closed the socket while we sent
            while sent < 16 * 2**20:
                sent += sock.send(piece)
        assert not isinstance(cut.value, TimeoutError), "the server stopped reading but kept the connection"
        _assert_problem(_response(sock), 431, "header_too_large")  # the reset leaves what had arrived readable
        assert _closed(sock)
    # It stops reading within one read (256 KiB) of the limit; what we managed to send sat in socket buffers.
    assert sum(read) < limits.max_header_bytes + 256 * 1024 + len(PARTIAL_HEAD)
    assert sent < 16 * 2**20


def test_a_head_not_complete_in_time_gets_408_while_others_are_served() -> None:
    with _serve(_limits(header_timeout=0.3), App()) as port:
        started = time.monotonic()  # the server's clock for this connection starts later
        with _connect(port) as slow, _connect(port) as other:
            slow.sendall(PARTIAL_HEAD)
            other.sendall(REQUEST)
            assert _response(other)[0] == 200
            _assert_problem(_response(slow), 408, "header_timeout")
            assert 0.29 < time.monotonic() - started < 2.0
            assert _closed(slow)


def test_a_keep_alive_connection_must_complete_its_next_head_in_time() -> None:
    with _serve(_limits(header_timeout=0.3), App()) as port, _connect(port) as sock:
        started = time.monotonic()  # the server's clock starts when it has answered
        sock.sendall(REQUEST)
        assert _response(sock)[0] == 200
        sock.sendall(PARTIAL_HEAD)
        _assert_problem(_response(sock), 408, "header_timeout")
        assert 0.29 < time.monotonic() - started < 2.0
        assert _closed(sock)


def test_connections_from_one_client_are_capped() -> None:
    with _serve(_limits(max_connections_per_client=20), App()) as port, ExitStack() as held:
        # Twenty idle connections; the kernel queues them in order and the server accepts them in that order.
        idle = [held.enter_context(_connect(port, "127.0.0.2")) for _ in range(20)]
        with _connect(port, "127.0.0.2") as one_more:
            started = time.monotonic()
            response = _response(one_more)
            _assert_problem(response, 429, "too_many_connections")
            assert response[1]["retry-after"] == "1"
            assert _closed(one_more)
            assert time.monotonic() - started < 5.0  # (at once, not after a timeout; loosely: CI is busy)
        with _connect(port, "127.0.0.1") as other_client:
            other_client.sendall(REQUEST)
            assert _response(other_client)[0] == 200
        for sock in idle:  # each is served, then closed by the server, which counts it out before its FIN
            sock.sendall(CLOSING_REQUEST)
            assert _response(sock)[0] == 200
            assert _closed(sock)
        with _connect(port, "127.0.0.2") as again:
            again.sendall(REQUEST)
            assert _response(again)[0] == 200


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _fd_limit_1024() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def _wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Returns once ``process`` accepts connections on ``port``; fails at once if it exits, or after 10 s."""
    deadline = time.monotonic() + 10
    while True:
        try:
            _connect(port, timeout=1.0).close()
            return
        except ConnectionRefusedError:
            assert time.monotonic() < deadline, "the gateway did not start in 10 s"
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            continue
        pytest.fail(f"the gateway exited: {log.read_text()}")


def test_slowloris_from_one_address_does_not_stop_the_gateway(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1300:
        pytest.skip(f"this test holds 1,100 sockets; the open-file limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1300), hard))
    port = _free_port()
    command = [sys.executable, "-m", "cli", "gateway", "--port", str(port), "--grpc-target", "127.0.0.1:1"]
    command += ["--header-timeout", "2", "--max-connections-per-client", "64"]
    command += ["--allowed-host", "test"]  # (the Host these requests name: hosts.py)
    log = tmp_path / "gateway.log"  # a file, not a pipe, which a chatty gateway could fill and block on
    with log.open("wb") as stderr:
        gateway = subprocess.Popen(
            command,
            cwd=Path(__file__).resolve().parents[2],
            env={**os.environ, "OTEL_SDK_DISABLED": "true"},
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            preexec_fn=_fd_limit_1024,
        )
    try:
        _wait_listening(port, gateway, log)
        with ExitStack() as held:
            for _ in range(1100):
                sock = held.enter_context(_connect(port, "127.0.0.2"))
                with suppress(OSError):  # refused already
                    sock.sendall(PARTIAL_HEAD)
            started = time.monotonic()
            with _connect(port, timeout=5.0) as client:
                client.sendall(b"GET /schema/openapi.json HTTP/1.1\r\nHost: test\r\n\r\n")
                status, _, body = _response(client)
            assert status == 200 and json.loads(body)["openapi"].startswith("3.1")
            assert time.monotonic() - started < 5.0
    finally:
        gateway.terminate()
        try:
            gateway.wait(10)
        except subprocess.TimeoutExpired:
            gateway.kill()
            gateway.wait()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
