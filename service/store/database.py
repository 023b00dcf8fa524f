"""Engines and migrations. The embedded default is a SQLite file under ./var/ (WAL); KICKOFF_DATABASE_URL selects
another store, e.g. postgresql+asyncpg://user@host/db."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import weakref
from collections.abc import AsyncIterator
from contextvars import ContextVar
from pathlib import Path

import asyncpg
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import event, literal_column
from sqlalchemy.exc import DBAPIError, InterfaceError, InternalError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.elements import ColumnElement

MIGRATIONS = Path(__file__).with_name("migrations")
log = logging.getLogger(__name__)
DEFAULT_URL = "sqlite+aiosqlite:///var/kickoff.db"


def database_url() -> str:
    """KICKOFF_DATABASE_URL, or the embedded SQLite file."""
    return os.environ.get("KICKOFF_DATABASE_URL") or DEFAULT_URL


def store_away(error: BaseException) -> bool:
    """Whether ``error`` says the store cannot be reached now (rather than that it refuses what it was given, or a
    bug): the answer to give is UNAVAILABLE, retriable. Looks through what the error was raised from, since the
    drivers and SQLAlchemy wrap each other's errors: a connection reset or refused by the network (OSError,
    PermissionError where a firewall rejects packets), a call that timed out, asyncpg's connection errors (a generic
    DBAPIError when SQLAlchemy does not know them), and SQLAlchemy's own verdicts (a connection it invalidated;
    OperationalError: refused or lost, server shutting down, disk full, database locked; InterfaceError: the driver's
    connection is gone; InternalError: a transaction the server aborted)."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, DBAPIError):
            if cause.connection_invalidated or isinstance(cause, OperationalError | InterfaceError | InternalError):
                return True
            orig = cause.orig
            cause = orig if isinstance(orig, BaseException) else cause.__cause__
            continue
        if isinstance(cause, OSError | TimeoutError | asyncpg.PostgresConnectionError | asyncpg.InterfaceError):
            return True
        cause = cause.__cause__
    return False


def _sqlite_path(url: str) -> Path | None:
    prefix = "sqlite+aiosqlite:///"
    if url.startswith(prefix) and url[len(prefix) :] not in ("", ":memory:"):
        return Path(url[len(prefix) :])
    return None


WRITE_WAIT = 30.0  # seconds a write transaction on SQLite waits its turn in the process before it fails
_writing: ContextVar[bool] = ContextVar("kickoff_sqlite_writing", default=False)


class _SqliteEngine(AsyncEngine):
    """A SQLite engine whose write transactions (:meth:`begin`) take turns in the process, first come first served.

    SQLite has one writer at a time. Left to itself, each waiting connection sleeps and retries in SQLite's busy
    handler, unfairly and for at most its busy timeout: with the event loop short of CPU (a loaded machine) a writer
    holds the lock longer, and a call could fail with "database is locked" although nothing was wrong. Here writers
    queue on an asyncio lock instead, so each gets its turn; the busy timeout is left for other processes on the same
    file. A transaction begun inside another one's turn (the same task) goes straight to SQLite, as before; one that
    waits WRITE_WAIT seconds for its turn fails as SQLite would ("database is locked")."""

    def __init__(self, sync_engine) -> None:  # type: ignore[no-untyped-def]
        super().__init__(sync_engine)
        self._turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()

    @contextlib.asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncConnection]:
        async with self._turn(), super().begin() as connection:
            yield connection

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        if _writing.get():  # (inside a turn already)
            yield
            return
        turn = self._turns.setdefault(asyncio.get_running_loop(), asyncio.Lock())
        try:
            async with asyncio.timeout(WRITE_WAIT):
                await turn.acquire()
        except TimeoutError:
            reason = sqlite3.OperationalError(f"database is locked (no turn to write in {WRITE_WAIT:g} s)")
            raise OperationalError("BEGIN", None, reason) from None
        token = _writing.set(True)
        try:
            yield
        finally:
            _writing.reset(token)
            turn.release()


POSTGRESQL_NOW = "extract(epoch from clock_timestamp())::float8"  # (service/store/leases.py's SQL uses it too)


def store_now(dialect: str) -> ColumnElement[float]:
    """The database's own clock in seconds since the Unix epoch, as SQL (the nodes' leases and presence's changes are
    stamped with it, never with a node's clock)."""
    if dialect == "postgresql":
        return literal_column(POSTGRESQL_NOW)
    return literal_column("((julianday('now') - 2440587.5) * 86400.0)")


def _stop_without_waiting(dbapi_connection) -> None:  # type: ignore[no-untyped-def]
    """End a SQLite connection the pool gives up on (one a cancelled call was using) at once: its worker thread closes
    it after what is queued there, and nothing waits. SQLAlchemy's own way (2.1, aiosqlite 0.22) first awaits a graceful
    close in a task of its own; if the call is cancelled again meanwhile it also stops the thread, and that task then
    waits for ever on a thread that is gone, so the event loop can never close (the process hangs at exit)."""
    dbapi_connection.driver_connection.stop()


SQLITE_POOL = 16  # connections a SQLite file's pool keeps open (and as many more it may open for a moment)


def create_engine(url: str, *, pool: bool = True) -> AsyncEngine:
    """An async engine; SQLite files get WAL, a busy timeout and writers that take turns, and their folder is made."""
    path = _sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    # hide_parameters: a database error's text (logged) shows the SQL, never the values bound to it. A SQLite file's
    # pool keeps up to SQLITE_POOL connections open (each is a thread and four PRAGMAs to open): with the default five,
    # a busy server opened and closed one for most reads past the fifth at once (the chat's, issue 49).
    sizes = {"pool_size": SQLITE_POOL, "max_overflow": SQLITE_POOL} if path is not None and pool else {}
    engine = create_async_engine(url, poolclass=None if pool else NullPool, hide_parameters=True, **sizes)
    if url.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(connection, _record) -> None:  # type: ignore[no-untyped-def]
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged move survives a crash of the machine too
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        engine.sync_engine.dialect.do_terminate = _stop_without_waiting  # type: ignore[method-assign]
        return _SqliteEngine(engine.sync_engine)
    return engine


def upgrade(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (creating it from empty). Runs its own event loop."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    path = _sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    # Alembic says at INFO what it sets up and each migration it runs (eight lines on a first start): its warnings and
    # errors only, and one line of ours.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    command.upgrade(config, "head")
    log.info("the store is at its newest migration, %s", ScriptDirectory.from_config(config).get_current_head())


async def upgrade_in_thread(url: str) -> None:
    """:func:`upgrade` from inside a running event loop (Alembic runs its own loop, so it gets a thread)."""
    await asyncio.to_thread(upgrade, url)
