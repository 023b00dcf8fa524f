"""Fair deals in the terminal (docs/guides/fair-deals.md): a seat taken from the client sends a seed of its own, which
the server publishes as the seat's; the table shows the deal's commitment during play and, at the end, the client's
own check of the revealed secret, as its replay screen does; a secret that does not match is said to be so."""

from __future__ import annotations

import contextlib
import random
import re

from deals import scheme
from kickoff.v1 import common_pb2
from terminal.app import KickoffApp
from terminal.client import CallFailed, KickoffClient, new_request_id
from terminal.replay import ReplayScreen
from terminal.tables import NOT_VERIFIED, VERIFIED, deal_lines
from tests.tui.conftest import SIZE, at_table, lobby, rooms, shown, target, until


async def test_a_seat_taken_in_the_terminal_sends_its_seed_and_the_end_says_deal_verified(start) -> None:
    """The seed the client sent on joining by the room's id is the one the server shows for the seat (Seat.seed) and
    the table's deal panel shows it with the commitment, short, while the game is played; once it is over the panel
    says "Deal verified" with the secret the room reveals, and so does the replay screen. A solo Soker room whose
    seat's moves are sent beside the app: a few seconds."""
    harness = await start()
    room = await harness.create(seats=2, system_players=1, solo=True)
    app = KickoffApp(target(harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("i", *room.room_id, "enter")  # join by the room's id
        screen = await at_table(pilot, turn=False)
        [room] = await rooms(harness, room.room_id)
        seed = room.seats[0].seed
        assert re.fullmatch(r"[0-9a-f]{16}", seed), room.seats[0]
        assert len(room.deal.commitment) == 64 and not room.deal.secret
        await until(pilot, lambda: room.deal.commitment[:12] in screen.deal_text(), "the commitment")
        playing = screen.deal_text()
        assert f"Your seat's seed: {seed}" in playing and room.deal.commitment not in playing, playing

        assert screen.ticket is not None
        token, chooser, sender = screen.ticket.token, random.Random(4), KickoffClient(target(harness))
        try:
            for _ in range(400):  # the seat's moves, beside the app, until the game is over
                await harness.settle(room.room_id)
                room = await sender.get_room(room.room_id)
                if room.status == common_pb2.ROOM_STATUS_FINISHED:
                    break
                version, legal = await sender.legal_moves(room.room_id, token)
                if legal:  # (refused when a system player moved first: the next look has the new moves)
                    with contextlib.suppress(CallFailed):
                        await sender.submit_move(room.room_id, token, chooser.choice(legal), new_request_id(), version)
        finally:
            await sender.close()
        assert room.status == common_pb2.ROOM_STATUS_FINISHED and len(room.deal.secret) == 64
        await until(pilot, lambda: screen.finished and screen.deal_text().startswith(VERIFIED), "the verdict")
        ended = screen.deal_text().splitlines()
        assert f"Secret: {room.deal.secret}" in ended and f"Commitment: {room.deal.commitment}" in ended, ended
        assert any(line.startswith("Seeds: ") and seed in line for line in ended), ended

        await pilot.press("v")  # the replay, which holds the deal too
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await until(pilot, lambda: shown(app, "#replay-deal").startswith(VERIFIED), "the replay's verdict")
        assert room.deal.secret in shown(app, "#replay-deal")


def test_the_client_says_a_secret_that_does_not_match_is_not_verified() -> None:
    """The client's check is its own (deals.scheme): a secret one character off, one cut short or for another game
    is not verified; another scheme is said to be unchecked; a room made before fair deals shows no deal at all."""
    secret = bytes(range(32))
    commitment = scheme.commitment(secret, "room1", "soker")
    deal = common_pb2.Deal(scheme=scheme.SCHEME, subject="room1", commitment=commitment, seeds=["ab", ""])
    playing = deal_lines(deal, "soker", "ab")
    assert playing[0] == f"Deal committed: {commitment[:12]}... (the secret is shown at the end)", playing
    assert "Your seat's seed: ab" in playing and "Seeds: ab (none)" in playing
    deal.secret = secret.hex()
    assert deal_lines(deal, "soker")[0] == VERIFIED
    assert deal_lines(deal, "carta-futbol-club")[0] == NOT_VERIFIED
    for wrong in (secret.hex()[:-1] + "0", secret.hex()[:62], "not hex at all"):
        deal.secret = wrong
        assert deal_lines(deal, "soker")[0] == NOT_VERIFIED, wrong
    deal.scheme = "kickoff-deal-9"
    assert deal_lines(deal, "soker")[0] == "Deal not checked: scheme 'kickoff-deal-9'"
    assert deal_lines(None, "soker") == [] and deal_lines(common_pb2.Deal(), "soker") == []
