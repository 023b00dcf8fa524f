"""Replays in the terminal: the client's replay screen, from the lobby and from the end of a game, and the replay file
that `kickoff replay` writes and reads back."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import cli
from kickoff.v1 import chat_pb2, chat_pb2_grpc, common_pb2, player_pb2, room_pb2
from service.settings import ChatSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import KickoffApp, ReplayApp
from terminal.replay import ReplayScreen, read_replay, replay_lines
from tests.server.conftest import auth
from tests.server.test_protocol import play_some, two_seat_game
from tests.tui.conftest import lobby, shown, until
from tests.tui.test_games import assert_inside


async def finished_game(start) -> tuple[object, str, int]:
    harness = await start()
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 2_000)
    view = await harness.view(room_id)
    assert not view.to_act, "the game is over"
    return harness, room_id, view.version


async def test_a_finished_game_is_replayed_from_the_lobby_with_the_keys(start) -> None:
    harness, room_id, last = await finished_game(start)
    app = KickoffApp(f"127.0.0.1:{harness.server.port}")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await lobby(pilot)
        await until(pilot, lambda: room_id in screen.rooms, "the finished room listed")
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        for selector in ("#replay-seats", "#replay-state", "#replay-feed", "#replay-position"):
            assert_inside(app, selector, 80, 24)
        assert shown(app, "#replay-position").startswith(f"Version 1 of {last} (paused)")
        await pilot.press("right", "right", "right")
        assert replay.version == 4
        await pilot.press("end")
        assert replay.version == last and "Game over." in shown(app, "#replay-state")
        hands = shown(app, "#replay-hands").splitlines()
        assert [line.split(":")[0] for line in hands] == ["player 0", "player 1"], "every seat's hand, by name"
        await pilot.press("home")
        assert replay.version == 1 and "The game has not begun." in shown(app, "#replay-state")
        middle = last - 3  # (two steps of play left after the next one: whatever the deal, the game is longer)
        await pilot.press("g", *str(middle), "enter")
        assert replay.version == middle
        fed = replay.query_one("#replay-feed").lines
        expected = [line for line in replay_lines(replay.replay) if line[:6].strip().isdigit()]
        assert [" ".join(line.split()) for line in fed] == [
            " ".join(line.split()) for line in expected if int(line[:6]) <= middle
        ], "the events so far, as the file reads them"
        await pilot.press("space")
        assert replay.playing and "playing at 1 a second" in shown(app, "#replay-position")
        replay.tick()  # (the timer's step, here by hand: no test waits on a clock)
        assert replay.version == middle + 1
        await pilot.press("plus")
        assert "playing at 2 a second" in shown(app, "#replay-position")
        await pilot.press("space", "escape")
        await lobby(pilot)


async def test_a_watched_game_offers_its_replay_at_the_end(start) -> None:
    harness, room_id, last = await finished_game(start)
    app = KickoffApp(f"127.0.0.1:{harness.server.port}", room=room_id, watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "finished", False), "the finished table")
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert app.screen.replay.revealed and app.screen.steps[-1].update.version == last


async def test_kickoff_replay_saves_a_file_and_reads_it_back(start, tmp_path: Path, capsys) -> None:
    harness, room_id, last = await finished_game(start)
    path = tmp_path / "game.json"
    target = f"127.0.0.1:{harness.server.port}"
    saved = await asyncio.to_thread(cli.main, ["replay", str(path), "--room", room_id, "--target", target, "--save"])
    assert saved == 0 and f"{last} versions of room {room_id}" in capsys.readouterr().out
    data = json.loads(path.read_text())
    assert data["revealed"] and len(data["steps"]) == last and data["room"]["roomId"] == room_id
    assert cli.main(["replay", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == list(replay_lines(read_replay(path)))
    assert printed[0].startswith(f"soker room {room_id}, 2 seats, {last} versions (every hand shown)")
    assert any(" drew " in line and "a card" not in line for line in printed), "the cards drawn are named"
    assert "Game over." in printed
    # A file that is not a replay, or one with a step missing, is refused with a clear error, and nothing printed.
    del data["steps"][3]
    broken = tmp_path / "gap.json"
    broken.write_text(json.dumps(data))
    (tmp_path / "junk.json").write_text('{"steps": "many"}')
    for name, words in (("gap.json", "not a whole replay"), ("junk.json", "not a replay file")):
        assert cli.main(["replay", str(tmp_path / name)]) == 2
        out, err = capsys.readouterr()
        assert not out and words in err


async def test_a_players_replay_shows_the_tables_chat_by_time_and_as_text(start, tmp_path: Path, capsys) -> None:
    """A replay saved with a seat's token carries the table's chat: `kickoff replay FILE` prints each message after
    the last step at or before its time, its markup as plain characters, and so does the replay screen's feed; a
    replay saved without a token has no chat. (~3 s: SQLite, four moves, the screen)"""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), chat=ChatSettings())
    ann = (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name="Ann"))).session
    create = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0)
    made = await harness.rooms.CreateRoom(create, metadata=auth(ann.access_token))
    room_id = made.room.room_id
    tokens = [made.seat_token, (await harness.join(room_id))[1]]
    chat = chat_pb2_grpc.ChatServiceStub(harness.channel)
    said = chat_pb2.SendChatMessageRequest(room_id=room_id, text="[b]good luck[/b] <i>")
    await chat.SendChatMessage(said, metadata=auth(ann.access_token))
    started = (await harness.view(room_id)).version  # (the message's time is the game's start's)
    harness.clock.advance(5)
    await play_some(harness, room_id, tokens, 4)
    harness.clock.advance(5)
    thanks = chat_pb2.SendChatMessageRequest(room_id=room_id, reaction=chat_pb2.CHAT_REACTION_THANKS)
    await chat.SendChatMessage(thanks, metadata=auth(tokens[1]))  # (an anonymous seat: a reaction)
    last = (await harness.view(room_id)).version

    target = f"127.0.0.1:{harness.server.port}"
    path, public = tmp_path / "mine.json", tmp_path / "public.json"
    for file, token in ((path, ["--token", tokens[1]]), (public, [])):
        command = ["replay", str(file), "--room", room_id, "--target", target, "--save", *token]
        assert await asyncio.to_thread(cli.main, command) == 0
    assert "chat" in json.loads(path.read_text()) and "chat" not in json.loads(public.read_text())
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    chat_lines = [" ".join(line.split()) for line in printed if "> " in line]
    assert chat_lines == [f"{started} > Ann: [b]good luck[/b] <i>", f"{last} > player 1: Thanks"]
    assert printed.index(next(line for line in printed if "> Ann" in line)) < printed.index(
        next(line for line in printed if line.split()[0] == str(started + 1))
    ), "before the moves made after it"

    app = ReplayApp(read_replay(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("end")
        fed = [" ".join(line.split()) for line in app.screen.query_one("#replay-feed").lines]
        assert fed[-1] == f"{last} > player 1: Thanks" and f"{started} > Ann: [b]good luck[/b] <i>" in fed
