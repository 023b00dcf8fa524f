"""A feed gives its reader the room's updates and the stream's own messages (answers to refused moves) in the order
they happened, whenever the reader gets round to reading them."""

from __future__ import annotations

from service.actors.feed import History, Readers


async def test_a_message_of_the_feeds_own_comes_between_the_updates_published_before_and_after_it() -> None:
    readers: Readers[str] = Readers(limit=4)
    history: History[str] = History(None)
    history.append("v1")
    feed = readers.open(history, 1, 0, finished=False)
    feed.send("refused r1")  # sent when v1 was out, before v2: the reader has read nothing yet
    history.append("v2")
    readers.publish()
    feed.send("refused r2")
    feed.stop()
    assert [item async for item in _drain(feed)] == ["v1", "refused r1", "v2", "refused r2"]


async def _drain(feed):
    while (item := await feed.next(until_stopped=True)) is not None:
        yield item
