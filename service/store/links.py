"""Where invitation links are kept (service/rooms/private.py): on the database (SqlLinks: every node and every restart
sees one link's revocation and uses) or in memory (MemoryLinks, for a store in memory, where nothing outlives the
process anyway). A use is counted atomically: of two joins racing for a link's last use, one wins."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import false, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from service.store.models import InvitationLinkRow


@dataclass(frozen=True)
class LinkRecord:
    """One invitation link as kept: which room it opens, when it was made and stops, how many joins it lets in and
    has let in, and whether it was revoked."""

    link_id: str
    room_id: str
    created_at: float
    expires_at: float
    max_uses: int
    uses: int = 0
    revoked: bool = False


def refusal(link: LinkRecord | None, now: float, *, joining: bool) -> str:
    """Why ``link`` opens nothing at ``now`` ('' when it opens its room): link_invalid (not kept), link_revoked,
    link_expired, and for a join link_used_up (watching needs no use)."""
    if link is None:
        return "link_invalid"
    if link.revoked:
        return "link_revoked"
    if now >= link.expires_at:
        return "link_expired"
    if joining and link.uses >= link.max_uses:
        return "link_used_up"
    return ""


def _record(row: object) -> LinkRecord:
    return LinkRecord(
        link_id=row.link_id,  # type: ignore[attr-defined]
        room_id=row.room_id,  # type: ignore[attr-defined]
        created_at=row.created_at,  # type: ignore[attr-defined]
        expires_at=row.expires_at,  # type: ignore[attr-defined]
        max_uses=row.max_uses,  # type: ignore[attr-defined]
        uses=row.uses,  # type: ignore[attr-defined]
        revoked=bool(row.revoked),  # type: ignore[attr-defined]
    )


class MemoryLinks:
    """Links in this process's memory (a store in memory)."""

    def __init__(self) -> None:
        self._links: dict[str, LinkRecord] = {}

    async def add(self, link: LinkRecord, most: int) -> bool:
        """Keep ``link`` unless its room has ``most`` links already (False)."""
        if sum(1 for kept in self._links.values() if kept.room_id == link.room_id) >= most:
            return False
        self._links[link.link_id] = link
        return True

    async def get(self, link_id: str) -> LinkRecord | None:
        return self._links.get(link_id)

    async def of_room(self, room_id: str) -> list[LinkRecord]:
        found = [link for link in self._links.values() if link.room_id == room_id]
        return sorted(found, key=lambda link: (link.created_at, link.link_id), reverse=True)

    async def revoke(self, room_id: str, link_id: str) -> LinkRecord | None:
        link = self._links.get(link_id)
        if link is None or link.room_id != room_id:
            return None
        self._links[link_id] = link = replace(link, revoked=True)
        return link

    async def claim(self, link_id: str, now: float) -> str:
        """Count one use of the link, if it has one left: '' when counted, else why not (see :func:`refusal`)."""
        link = self._links.get(link_id)
        why = refusal(link, now, joining=True)
        if not why and link is not None:
            self._links[link_id] = replace(link, uses=link.uses + 1)
        return why

    async def release(self, link_id: str) -> None:
        """Give back a use :meth:`claim` counted for a join that then failed."""
        link = self._links.get(link_id)
        if link is not None and link.uses > 0:
            self._links[link_id] = replace(link, uses=link.uses - 1)


class SqlLinks:
    """Links on the database (table invitation_links, migration 0021)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add(self, link: LinkRecord, most: int) -> bool:
        table = InvitationLinkRow
        async with self.engine.begin() as connection:
            count = (await connection.execute(select(func.count()).where(table.room_id == link.room_id))).scalar_one()
            if count >= most:
                return False
            await connection.execute(
                insert(table).values(
                    link_id=link.link_id,
                    room_id=link.room_id,
                    created_at=link.created_at,
                    expires_at=link.expires_at,
                    max_uses=link.max_uses,
                    uses=0,
                    revoked=False,
                )
            )
        return True

    async def get(self, link_id: str) -> LinkRecord | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(select(InvitationLinkRow).where(InvitationLinkRow.link_id == link_id))
            ).first()
        return None if row is None else _record(row)

    async def of_room(self, room_id: str) -> list[LinkRecord]:
        table = InvitationLinkRow
        query = select(table).where(table.room_id == room_id).order_by(table.created_at.desc(), table.link_id.desc())
        async with self.engine.connect() as connection:
            return [_record(row) for row in await connection.execute(query)]

    async def revoke(self, room_id: str, link_id: str) -> LinkRecord | None:
        table = InvitationLinkRow
        async with self.engine.begin() as connection:
            await connection.execute(
                update(table).where(table.link_id == link_id, table.room_id == room_id).values(revoked=True)
            )
            row = (
                await connection.execute(select(table).where(table.link_id == link_id, table.room_id == room_id))
            ).first()
        return None if row is None else _record(row)

    async def claim(self, link_id: str, now: float) -> str:
        """As MemoryLinks.claim, in one conditional UPDATE: the database counts the use only while one is left."""
        table = InvitationLinkRow
        async with self.engine.begin() as connection:
            counted = await connection.execute(
                update(table)
                .where(
                    table.link_id == link_id,
                    table.revoked == false(),
                    table.expires_at > now,
                    table.uses < table.max_uses,
                )
                .values(uses=table.uses + 1)
            )
            if counted.rowcount == 1:
                return ""
            row = (await connection.execute(select(table).where(table.link_id == link_id))).first()
        return refusal(None if row is None else _record(row), now, joining=True) or "link_used_up"

    async def release(self, link_id: str) -> None:
        table = InvitationLinkRow
        async with self.engine.begin() as connection:
            await connection.execute(
                update(table).where(table.link_id == link_id, table.uses > 0).values(uses=table.uses - 1)
            )
