"""`kickoff webhooks add|list|remove|test|deliveries|redeliver`: the operators' admin API for webhooks, called over
gRPC on a running server with the operator key ($KICKOFF_OPERATOR_KEY: never a command-line argument, which other
users of the machine could read)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from typing import Any

EVENTS = (
    "turn.began",
    "match.found",
    "game.ended",
    "tournament.game_ready",
    "clock.running_out",
    "friend.requested",
    "friend.accepted",
    "room.invited",
    "rematch.proposed",
    "chat.message",
)


def add_parser(commands: Any) -> None:
    webhooks = commands.add_parser(
        "webhooks", help="webhook endpoints and their deliveries, on a running server ($KICKOFF_OPERATOR_KEY)"
    )
    webhooks.add_argument("--target", default="127.0.0.1:50051", help="the gRPC server, host:port")
    verbs = webhooks.add_subparsers(dest="webhooks", required=True)
    add = verbs.add_parser("add", help="register an endpoint and print its signing secret (shown only this once)")
    add.add_argument("url", help="an http(s) URL")
    add.add_argument(
        "--event", action="append", choices=EVENTS, required=True, help="an event it wants (again for more)"
    )
    add.add_argument("--description", default="", help="what it is, for people")
    add.add_argument("--max-in-flight", type=int, default=0, help="deliveries to it at once (default 4, at most 32)")
    add.add_argument("--timeout", type=float, default=0.0, help="seconds an attempt may take (default 10, at most 30)")
    add.add_argument(
        "--chat-text", action="store_true", help="its chat.message deliveries carry the message's text (default: none)"
    )
    verbs.add_parser("list", help="every endpoint: id, URL, events, backlog, dead letters")
    remove = verbs.add_parser("remove", help="remove an endpoint and what it had still to be sent")
    remove.add_argument("endpoint_id")
    test = verbs.add_parser("test", help="send an endpoint a signed webhook.test event now; exits 1 if it failed")
    test.add_argument("endpoint_id")
    deliveries = verbs.add_parser("deliveries", help="deliveries, newest first (--status dead: the dead letters)")
    deliveries.add_argument("--endpoint", default="", help="only this endpoint's")
    deliveries.add_argument("--status", default="", choices=("", "pending", "sending", "delivered", "dead", "obsolete"))
    deliveries.add_argument("--limit", type=int, default=50, help="at most this many (at most 500)")
    redeliver = verbs.add_parser("redeliver", help="send an endpoint's dead letters again (all, or those named)")
    redeliver.add_argument("endpoint_id")
    redeliver.add_argument("delivery_ids", nargs="*")


def run(args: argparse.Namespace) -> int:
    key = os.environ.get("KICKOFF_OPERATOR_KEY", "")
    if not key:
        print("kickoff: set KICKOFF_OPERATOR_KEY to the server's operator key", file=sys.stderr)
        return 2
    return asyncio.run(_call(args, (("x-operator-key", key),)))


async def _call(args: argparse.Namespace, metadata: tuple[tuple[str, str], ...]) -> int:
    import grpc

    from kickoff.v1 import webhook_pb2 as pb
    from kickoff.v1 import webhook_pb2_grpc

    names = {name: pb.WebhookEvent.Value("WEBHOOK_EVENT_" + name.upper().replace(".", "_")) for name in EVENTS}
    event_names = {value: name for name, value in names.items()}
    async with grpc.aio.insecure_channel(args.target) as channel:
        stub = webhook_pb2_grpc.WebhookServiceStub(channel)
        try:
            if args.webhooks == "add":
                request = pb.AddEndpointRequest(
                    url=args.url,
                    events=[names[event] for event in args.event],
                    description=args.description,
                    max_in_flight=args.max_in_flight,
                    timeout_seconds=args.timeout,
                    chat_text=args.chat_text,
                )
                answer = await stub.AddEndpoint(request, metadata=metadata, timeout=30)
                print(f"endpoint {answer.endpoint.endpoint_id} for {answer.endpoint.url}")
                print(f"signing secret (shown only now): {answer.secret}")
            elif args.webhooks == "list":
                listed = await stub.ListEndpoints(pb.ListEndpointsRequest(), metadata=metadata, timeout=30)
                for endpoint in listed.endpoints:
                    events = ",".join(event_names.get(event, "?") for event in endpoint.events)
                    print(
                        f"{endpoint.endpoint_id}  {endpoint.url}  {events}  backlog {endpoint.backlog}  "
                        f"dead {endpoint.dead}  secret {endpoint.secret_hint}"
                    )
            elif args.webhooks == "remove":
                await stub.RemoveEndpoint(pb.RemoveEndpointRequest(endpoint_id=args.endpoint_id), metadata=metadata)
                print(f"endpoint {args.endpoint_id} removed")
            elif args.webhooks == "test":
                request = pb.TestEndpointRequest(endpoint_id=args.endpoint_id)
                tested = await stub.TestEndpoint(request, metadata=metadata, timeout=60)
                outcome = f"delivered: HTTP {tested.status_code}" if tested.delivered else f"failed: {tested.error}"
                print(f"{tested.delivery_id}  {outcome}  ({tested.seconds * 1000:.0f} ms)")
                return 0 if tested.delivered else 1
            elif args.webhooks == "deliveries":
                status = pb.DeliveryStatus.Value("DELIVERY_STATUS_" + args.status.upper()) if args.status else 0
                request = pb.ListDeliveriesRequest(endpoint_id=args.endpoint, status=status, page_size=args.limit)
                page = await stub.ListDeliveries(request, metadata=metadata, timeout=30)
                for delivery in page.deliveries:
                    made = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(delivery.create_time.seconds))
                    state = pb.DeliveryStatus.Name(delivery.status).removeprefix("DELIVERY_STATUS_").lower()
                    event = event_names.get(delivery.event, "?")
                    print(
                        f"{delivery.delivery_id}  {delivery.endpoint_id}  {event:<22} {state:<9} "
                        f"{delivery.attempts} attempts  {made} UTC  {delivery.last_error}"
                    )
            else:
                request = pb.RedeliverDeliveriesRequest(endpoint_id=args.endpoint_id, delivery_ids=args.delivery_ids)
                again = await stub.RedeliverDeliveries(request, metadata=metadata, timeout=30)
                print(f"{again.redelivered} dead letters sent again")
        except grpc.aio.AioRpcError as error:
            print(f"kickoff: {error.code().name}: {error.details()}", file=sys.stderr)
            return 1
    return 0
