"""The chat under its moderation (issue 49): the operator's word filter on what is said, and a mute refusing a
player's messages everywhere. (~0.5 s a store)"""

from __future__ import annotations

import grpc

from service.chat.reports import Mutes
from service.store.database import create_engine
from tests.chat.conftest import refused, texts


async def test_a_listed_word_is_masked_and_a_muted_player_is_refused(tables, database_url: str, tmp_path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("darn\n", encoding="utf-8")
    table = await tables(filter_file=str(words), filter_mode="mask")
    ann, bo = await table.guest("Ann"), await table.guest("Bo")
    room = await table.room(ann, bo)
    said = await table.say(ann, room, "well DARN it")
    assert said.text == "well **** it", "the filter masks a listed word, whatever its case"
    engine = create_engine(database_url)
    try:
        await Mutes(engine, table.harness.clock.now).mute(bo.player.player_id, 3600, "insults", "key-1")
    finally:
        await engine.dispose()
    assert await refused(table.send(bo, room, "hello"), grpc.StatusCode.PERMISSION_DENIED) == "muted"
    assert texts(await table.read(ann, room)) == ["well **** it"], "nothing of the muted player's was kept"
