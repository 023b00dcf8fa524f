"""Signing in: as a guest (with and without a device id), with an identity provider's token, linking one to a guest;
sessions: the access token on every player's call, refresh rotation, a reused refresh token ending the session,
signing out; all on SQLite and PostgreSQL."""

from __future__ import annotations

import grpc

from kickoff.v1 import player_pb2
from tests.players.conftest import Served, auth, id_token
from tests.server.conftest import refusal


async def me(served: Served, session: player_pb2.Session) -> player_pb2.Player:
    return (
        await served.harness.players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(session.access_token))
    ).player


async def test_a_guest_is_a_new_player_each_time_unless_a_device_id_names_them(served: Served) -> None:
    first = await served.guest(name="  Ann   Lee ")
    assert first.player.name == "Ann Lee"  # (the seat names' normalisation)
    assert (await me(served, first)).player_id == first.player.player_id
    assert (await served.guest()).player.player_id != first.player.player_id
    device = "device-0123456789abcdef"
    phone = await served.guest(name="Bo", device_id=device)
    again = await served.guest(device_id=device)
    assert again.player.player_id == phone.player.player_id and again.player.name == "Bo"
    assert (await served.guest()).player.name.startswith("Guest ")
    code, why, _ = await refusal(
        served.harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(device_id="short"))
    )
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "invalid_request")


async def test_the_same_external_subject_is_the_same_player_at_every_sign_in(served: Served) -> None:
    players = served.harness.players
    first = await players.SignInWithToken(
        player_pb2.SignInWithTokenRequest(id_token=id_token("sub-1", served.now), name="Cy")
    )
    again = await players.SignInWithToken(player_pb2.SignInWithTokenRequest(id_token=id_token("sub-1", served.now)))
    assert first.created and not again.created
    assert again.session.player.player_id == first.session.player.player_id and again.session.player.name == "Cy"
    identities = (await me(served, again.session)).identities
    assert [(i.issuer, i.subject) for i in identities] == [("https://id.example.com/", "sub-1")]
    code, why, _ = await refusal(
        players.SignInWithToken(player_pb2.SignInWithTokenRequest(id_token=id_token("sub-1", served.now, aud="other")))
    )
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "bad_audience")


async def test_a_guest_links_an_identity_and_stays_the_same_player(served: Served) -> None:
    players = served.harness.players
    guest = await served.guest(name="Di")
    linked = await players.LinkIdentity(
        player_pb2.LinkIdentityRequest(id_token=id_token("sub-2", served.now)), metadata=auth(guest.access_token)
    )
    assert [i.subject for i in linked.player.identities] == ["sub-2"]
    signed = await players.SignInWithToken(player_pb2.SignInWithTokenRequest(id_token=id_token("sub-2", served.now)))
    assert signed.session.player.player_id == guest.player.player_id and not signed.created
    other = await served.guest()
    code, why, _ = await refusal(
        players.LinkIdentity(
            player_pb2.LinkIdentityRequest(id_token=id_token("sub-2", served.now)), metadata=auth(other.access_token)
        )
    )
    assert (code, why) == (grpc.StatusCode.ALREADY_EXISTS, "identity_taken")


async def test_refresh_rotates_and_a_reused_refresh_token_ends_the_session(served: Served) -> None:
    players = served.harness.players
    session = await served.guest()
    renewed = (
        await players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=session.refresh_token))
    ).session
    assert renewed.refresh_token != session.refresh_token and renewed.player.player_id == session.player.player_id
    assert (await me(served, renewed)).player_id == session.player.player_id
    # The first refresh token again: stolen or replayed. The whole session ends, the newer tokens too.
    code, why, _ = await refusal(
        players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=session.refresh_token))
    )
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "refresh_reused")
    code, why, _ = await refusal(
        players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=renewed.refresh_token))
    )
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")
    code, why, _ = await refusal(me(served, renewed))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")


async def test_an_access_token_expires_and_signing_out_ends_the_session(served: Served) -> None:
    players = served.harness.players
    session = await served.guest()
    served.harness.clock.advance(15 * 60 + 1)
    code, why, _ = await refusal(me(served, session))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "token_expired")
    renewed = (
        await players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=session.refresh_token))
    ).session
    await players.SignOut(player_pb2.SignOutRequest(), metadata=auth(renewed.access_token))
    code, why, _ = await refusal(me(served, renewed))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")
    code, why, _ = await refusal(
        players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=renewed.refresh_token))
    )
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")


async def test_tokens_that_are_not_this_services_are_refused_with_their_reason(served: Served) -> None:
    players = served.harness.players
    session = await served.guest()
    header, payload, signature = session.access_token.split(".")
    forged = f"{header}.{payload}.{signature[:-4]}AAAA"
    code, why, _ = await refusal(me(served, player_pb2.Session(access_token=forged)))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "bad_signature")
    code, why, _ = await refusal(players.GetPlayer(player_pb2.GetPlayerRequest()))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "no_session")
    code, why, _ = await refusal(players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token="kr1_nothing")))
    assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "refresh_unknown")


async def test_a_players_live_sessions_are_bounded_and_the_oldest_ends_first(served: Served) -> None:
    """An attacker's report: 201 sign-ins of one device made 201 live sessions. A player has at most
    KICKOFF_SESSIONS_PER_PLAYER (20) live sessions: each sign-in past it ends the oldest one, at once."""
    device = "device-0123456789abcdef"
    sessions = []
    for _ in range(22):
        sessions.append(await served.guest(device_id=device))
        served.harness.clock.advance(1.0)  # (each a second after the last: "the oldest" is plain)
    assert len({s.player.player_id for s in sessions}) == 1
    players = served.harness.players
    for ended in sessions[:2]:
        code, why, _ = await refusal(me(served, ended))
        assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")
        code, why, _ = await refusal(
            players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=ended.refresh_token))
        )
        assert (code, why) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")
    for live in sessions[2:]:
        assert (await me(served, live)).player_id == sessions[0].player.player_id
    # Signing out of one leaves room for a new sign-in without ending another.
    await players.SignOut(player_pb2.SignOutRequest(), metadata=auth(sessions[2].access_token))
    newest = await served.guest(device_id=device)
    for live in [*sessions[3:], newest]:
        assert (await me(served, live)).player_id == sessions[0].player.player_id
