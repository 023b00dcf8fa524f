"""A database made by an older release upgrades in place: its rooms stay, and the server rebuilds them."""

from __future__ import annotations

import asyncio
import logging

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.database import MIGRATIONS, create_engine, upgrade, upgrade_in_thread
from service.store.journal import SqlJournal


def _upgrade_to(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, revision)


async def test_rooms_stored_before_tournaments_survive_the_upgrade(empty_database_url: str) -> None:
    url = empty_database_url
    await asyncio.to_thread(_upgrade_to, url, "0001")
    # A room with a person seated and a system player, as release 0001 stored it (seats and log point at it).
    journal = SqlJournal(create_engine(url))
    engine = journal.engine
    async with engine.begin() as connection:
        await connection.execute(
            text("INSERT INTO rooms VALUES ('r1', 'soker', 'solo', 2, 1, 'heuristic', 0, '{}', 7, 1.0, 'playing')")
        )
        await connection.execute(text("INSERT INTO seats VALUES ('r1', 0, 'person', true, 'ann')"))
        await connection.execute(text("INSERT INTO seats VALUES ('r1', 1, 'system', true, 'heuristic bot')"))
        await connection.execute(
            text(
                "INSERT INTO room_log (room_id, version, kind, seat, move, request_id, name, nonce, deadline, "
                "created_at) VALUES ('r1', 1, 'join', 0, NULL, '', 'ann', 'abc', NULL, 1.0)"
            )
        )
    await engine.dispose()

    await upgrade_in_thread(url)  # 0001 -> newest, with the rooms table rebuilt on SQLite

    journal = SqlJournal(create_engine(url))
    async with journal.engine.connect() as connection:
        tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
        indexes = await connection.run_sync(lambda sync: {i["name"] for i in inspect(sync).get_indexes("rooms")})
    assert {"tournaments", "tournament_log"} <= tables
    assert {"ix_rooms_status", "ix_rooms_tournament_id"} <= indexes
    directory = RoomDirectory(clock=ManualClock(), journal=journal, default_think_seconds=0)
    await directory.restore(await journal.load_live("room"))
    room = directory.get("r1")
    assert room.status == "playing" and room.seats[0].name == "ann" and room.tournament_id == ""
    room.check_seat(0, "abc")  # the seat token of before the upgrade still holds
    await directory.close()
    await journal.close()


def test_a_first_start_logs_one_line_of_ours_and_no_alembic_chatter(tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO)
    upgrade(f"sqlite+aiosqlite:///{tmp_path}/first.db")
    chatter = [r.getMessage() for r in caplog.records if r.name.startswith("alembic") and r.levelno < logging.WARNING]
    assert chatter == [], "Alembic's INFO lines (its set-up, each migration run) are not shown"
    ours = [r.getMessage() for r in caplog.records if r.name == "service.store.database"]
    assert len(ours) == 1 and ours[0].startswith("the store is at its newest migration, 0")


async def test_the_heuristic_players_ratings_become_the_normal_levels(empty_database_url: str) -> None:
    """0011: the heuristic player is now the normal level; its rating and its history move with it, nothing else."""
    url = empty_database_url
    await asyncio.to_thread(_upgrade_to, url, "0010")
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for player in ("system-heuristic", "system-random", "ann"):
                await connection.execute(
                    text(
                        "INSERT INTO ratings (game, player_id, kind, mu, sigma, display, games, wins, updated_at) "
                        "VALUES ('soker', :player, 'system', 26.0, 7.0, 5.0, 3, 2, 1.0)"
                    ),
                    {"player": player},
                )
            await connection.execute(
                text(
                    "INSERT INTO rating_changes (room_id, player_id, game, place, mu_before, sigma_before, mu, sigma, "
                    "time) VALUES ('r1', 'system-heuristic', 'soker', 1, 25.0, 8.3, 26.0, 7.0, 1.0)"
                )
            )
        await asyncio.to_thread(_upgrade_to, url, "head")
        async with engine.connect() as connection:
            ratings = {row[0]: row[1] for row in await connection.execute(text("SELECT player_id, mu FROM ratings"))}
            changes = [row[0] for row in await connection.execute(text("SELECT player_id FROM rating_changes"))]
    finally:
        await engine.dispose()
    assert ratings == {"system-normal": 26.0, "system-random": 26.0, "ann": 26.0}
    assert changes == ["system-normal"]
