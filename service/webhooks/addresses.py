"""Which addresses a webhook endpoint may reach: not the server's own machine, its cluster or its cloud's metadata
service, unless the operator allows them (KICKOFF_WEBHOOK_ALLOW, e.g. 10.0.0.0/8 for receivers inside the cluster).

An address is refused when it is loopback, link-local (169.254.0.0/16 with the metadata service 169.254.169.254,
fe80::/10), private (10/8, 172.16/12, 192.168/16, fc00::/7), shared (100.64/10), unspecified, multicast, reserved,
site-local (fec0::/10), a well-known metadata address (fd00:ec2::254, 100.100.100.200, ...), or anything else the
standard library does not call global; an IPv6 address that carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d,
IPv4-compatible ::a.b.c.d, 6to4 2002::/16, NAT64 64:ff9b::/96) is judged by the IPv4 address it carries, so
::ffff:127.0.0.1 is loopback. An address inside an allowed network is never refused.

A URL is checked twice: :func:`check_url` when it is registered (its form, and its host when that is an address),
and :meth:`AddressPolicy.resolve` whenever its host is looked up, at registration and again on every attempt right
before connecting (service/webhooks/sender.py connects only to the addresses that check passed), since what a name
resolves to can change between the two (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from service.errors import InvalidRequest

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
BAD_URL, ADDRESS_REFUSED, UNRESOLVED = "bad_url", "address_refused", "unresolved"

# Metadata services of the clouds (most are link-local or private anyway: named so the reason says what they are).
METADATA = frozenset(
    ipaddress.ip_address(address)
    for address in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean...
        "169.254.170.2",  # AWS ECS task metadata
        "169.254.169.253",  # AWS DNS
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::23",  # AWS DNS over IPv6
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud (classic)
    )
)
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT: not global, yet not "private" to ipaddress
IETF_PROTOCOL = ipaddress.ip_network("192.0.0.0/24")  # IETF protocol assignments (ipaddress calls parts global)
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known NAT64 prefix: carries an IPv4 address in its last 32 bits
NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # local-use NAT64: what it carries depends on the network
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d
UNSAFE_URL = re.compile(r"[\s\\\x00-\x1f\x7f]")  # whitespace, backslashes and controls: parsers disagree on them
PATH_SAFE = "/%:@!$&'()*+,;=-._~?"


class AddressRefused(InvalidRequest):
    """A URL or address an endpoint may not have. ``code`` says why: ``bad_url`` (not http(s), userinfo, no host, a
    fragment, or a malformed one), ``address_refused`` (its host is, or resolves to, a refused address: ``address``
    names it, ``why`` says what it is) or ``unresolved`` (its host name does not resolve)."""

    code = ADDRESS_REFUSED
    field = "url"

    def __init__(
        self, message: str, *, code: str = ADDRESS_REFUSED, address: IPAddress | None = None, why: str = ""
    ) -> None:
        super().__init__(message, code=code)
        self.address = address
        self.why = why

    @property
    def reason(self) -> str:
        return self.code


@dataclass(frozen=True)
class Target:
    """A URL's parts, as checked: ``host`` is lower case ASCII (IDNA) without brackets, ``target`` the path and
    query to request (percent-encoded, at least "/")."""

    scheme: str
    host: str
    port: int
    target: str

    @property
    def is_address(self) -> bool:
        return _literal(self.host) is not None

    @property
    def authority(self) -> str:
        """The Host header: the host (an IPv6 address in brackets), and the port unless it is the scheme's own."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}{self.target}"


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _embedded(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, compatible, 6to4, NAT64), or None."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in NAT64 or (address in IPV4_COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


class AddressPolicy:
    """The addresses endpoints may reach: every global one, and those inside ``allow`` (addresses or networks in
    CIDR, WebhookSettings.allow)."""

    def __init__(self, allow: Sequence[str] = ()) -> None:
        self.allow = tuple(ipaddress.ip_network(network, strict=False) for network in allow)

    def allowed(self, address: IPAddress) -> bool:
        return any(address.version == network.version and address in network for network in self.allow)

    def refusal(self, address: IPAddress | str) -> str | None:
        """Why ``address`` is refused ("loopback", "private", "metadata"...), or None when it may be reached."""
        if isinstance(address, str):
            address = ipaddress.ip_address(address)
        if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
            address = ipaddress.IPv6Address(int(address))  # (a zone names an interface, not another address)
        if self.allowed(address):
            return None
        if isinstance(address, ipaddress.IPv6Address):
            if address in NAT64_LOCAL:
                return "local NAT64"
            carried = _embedded(address)
            if carried is not None:
                why = self.refusal(carried)
                return None if why is None else f"{why}, carried in IPv6"
        if address in METADATA:
            return "metadata"
        if address.is_unspecified:
            return "unspecified"
        if address.is_loopback:
            return "loopback"
        if address.is_link_local:
            return "link-local"
        if address.is_multicast:
            return "multicast"
        if address.version == 4 and address in SHARED:
            return "shared"
        if address.version == 4 and address in IETF_PROTOCOL:
            return "reserved"
        if address.is_private:
            return "private"
        if address.is_reserved:
            return "reserved"
        if isinstance(address, ipaddress.IPv6Address) and address.is_site_local:
            return "site-local"
        if not address.is_global:
            return "not global"
        return None

    def check(self, address: IPAddress | str, host: str = "") -> IPAddress:
        """``address`` if it may be reached; AddressRefused (address_refused) naming it otherwise."""
        if isinstance(address, str):
            address = ipaddress.ip_address(address)
        why = self.refusal(address)
        if why is not None:
            said = f"refused address {address} ({why})"
            message = f"the host resolves to {said}" if host and host != str(address) else said
            raise AddressRefused(message, address=address, why=why)
        return address

    def check_url(self, url: str) -> Target:
        """:func:`check_url` with this policy."""
        return check_url(url, self)

    async def lookup(self, host: str, port: int) -> list[str]:
        """What ``host`` resolves to (the event loop's getaddrinfo), unchecked; AddressRefused (unresolved) when it
        does not resolve."""
        loop = asyncio.get_running_loop()
        try:
            found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            raise AddressRefused("the host does not resolve", code=UNRESOLVED) from None
        return [info[4][0] for info in found if info[0] in (socket.AF_INET, socket.AF_INET6)]

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        """The addresses ``host`` resolves to, every one of them checked (an address is checked as it is, with no
        lookup). AddressRefused: address_refused naming the first refused one, if ANY is (a name that resolves to a
        public and a private address could be steered to the private one), or unresolved."""
        literal = _literal(host.strip("[]"))
        if literal is not None:
            return [self.check(literal)]
        addresses: list[IPAddress] = []
        for found in await self.lookup(host, port):
            address = ipaddress.ip_address(found)
            if address not in addresses:
                addresses.append(address)
        if not addresses:
            raise AddressRefused("the host does not resolve", code=UNRESOLVED)
        for address in addresses:
            self.check(address, host)
        return addresses


def _bad(message: str) -> AddressRefused:
    return AddressRefused(message, code=BAD_URL)


def check_url(url: str, policy: AddressPolicy | None = None) -> Target:
    """The parts of an endpoint's URL, checked: http or https, a host, no userinfo, no fragment (AddressRefused
    bad_url otherwise), and a host that is not a refused address (address_refused; ``policy`` None: allowing
    nothing). A host name is not looked up here: :meth:`AddressPolicy.resolve` does that."""
    policy = policy if policy is not None else AddressPolicy()
    if UNSAFE_URL.search(url):
        raise _bad("the URL has whitespace, a backslash or a control character")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise _bad("the URL is malformed (its host or port)") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise _bad("the URL must be http or https")
    if "@" in parts.netloc or parts.username is not None or parts.password is not None:
        raise _bad("the URL may not hold a user name or password")
    if "#" in url:
        raise _bad("the URL may not have a fragment")
    host = parts.hostname or ""
    if not host:
        raise _bad("the URL has no host")
    if port == 0:
        raise _bad("the URL's port must be 1-65535")
    literal = _literal(host)
    if literal is None:
        if "%" in host or ":" in host:
            raise _bad("the URL's host is malformed")
        try:
            socket.inet_aton(host)  # "127.1", "2130706433", "0x7f.0.0.1": addresses to getaddrinfo, not names
        except OSError:
            pass
        else:
            raise _bad("the URL's host is an address in a shorthand form: write it as a.b.c.d")
        try:
            host = host.encode("idna").decode("ascii").lower()
        except UnicodeError:
            raise _bad("the URL's host is not a valid name") from None
        if not host.strip("."):
            raise _bad("the URL has no host")
    else:
        policy.check(literal)
        host = literal.compressed
    target = quote(parts.path or "/", safe=PATH_SAFE)
    if parts.query:
        target += "?" + quote(parts.query, safe=PATH_SAFE)
    return Target(scheme, host, port or (443 if scheme == "https" else 80), target)
