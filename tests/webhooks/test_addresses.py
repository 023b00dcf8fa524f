"""Which addresses an endpoint may reach, and which URLs it may have."""

from __future__ import annotations

import pytest

from service.errors import InvalidRequest
from service.webhooks.addresses import AddressPolicy, AddressRefused, check_url

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.8.9.10", "loopback"),
    ("::1", "loopback"),
    ("169.254.169.254", "metadata"),
    ("169.254.1.1", "link-local"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "link-local"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("fc00::1", "private"),
    ("fd12:3456::1", "private"),
    ("fd00:ec2::254", "metadata"),
    ("100.64.0.1", "shared"),
    ("100.127.255.254", "shared"),
    ("100.100.100.200", "metadata"),
    ("0.0.0.0", "unspecified"),
    ("::", "unspecified"),
    ("0.1.2.3", "private"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("ff02::1", "multicast"),
    ("240.0.0.1", "private"),  # (reserved: ipaddress files 240/4 under private too)
    ("255.255.255.255", "private"),
    ("192.0.0.9", "reserved"),
    ("192.0.2.1", "private"),  # documentation
    ("198.18.0.1", "private"),  # benchmarking
    ("fec0::1", "site-local"),
    ("2001:db8::1", "private"),
    ("::ffff:127.0.0.1", "loopback, carried in IPv6"),
    ("::ffff:10.0.0.1", "private, carried in IPv6"),
    ("::ffff:169.254.169.254", "metadata, carried in IPv6"),
    ("::127.0.0.1", "loopback, carried in IPv6"),  # IPv4-compatible
    ("2002:7f00:1::1", "loopback, carried in IPv6"),  # 6to4 of 127.0.0.1
    ("2002:a9fe:a9fe::1", "metadata, carried in IPv6"),  # 6to4 of 169.254.169.254
    ("64:ff9b::7f00:1", "loopback, carried in IPv6"),  # NAT64 of 127.0.0.1
    ("64:ff9b::a01:203", "private, carried in IPv6"),  # NAT64 of 10.1.2.3
    ("64:ff9b:1::808:808", "local NAT64"),
    ("2001::1", "private"),  # Teredo
]
ALLOWED = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"]


@pytest.mark.parametrize(("address", "why"), REFUSED)
def test_refused_addresses(address: str, why: str) -> None:
    policy = AddressPolicy()
    assert policy.refusal(address) == why
    with pytest.raises(AddressRefused) as raised:
        policy.check(address)
    assert raised.value.code == "address_refused"
    assert str(raised.value).startswith("refused address ")


@pytest.mark.parametrize("address", ALLOWED)
def test_global_addresses_are_allowed(address: str) -> None:
    assert AddressPolicy().refusal(address) is None


def test_allowed_networks_open_what_they_name() -> None:
    policy = AddressPolicy(["127.0.0.0/8", "10.0.0.0/8", "fd00::/8"])
    for address in ("127.0.0.1", "::ffff:127.0.0.1", "10.9.9.9", "fd12::1", "64:ff9b::a01:203"):
        assert policy.refusal(address) is None, address
    for address in ("::1", "192.168.1.1", "169.254.169.254", "172.16.0.1", "fe80::1"):
        assert policy.refusal(address) is not None, address


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/x",
        "file:///etc/passwd",
        "gopher://example.com",
        "example.com/hook",
        "http://user@example.com/hook",
        "http://user:pw@example.com/hook",
        "http://example.com/hook#part",
        "http:///hook",
        "http://",
        "http://example.com:0/",
        "http://example.com:99999/",
        "http://exa mple.com/",
        "http://example.com\\@evil.test/",
        "http://127.1/",  # shorthand IPv4 (inet_aton reads it as 127.0.0.1)
        "http://2130706433/",
        "http://0x7f.0.0.1/",
        "http://[::1/",
    ],
)
def test_bad_urls(url: str) -> None:
    with pytest.raises(AddressRefused) as raised:
        check_url(url, AddressPolicy())
    assert raised.value.code == "bad_url"
    assert raised.value.reason == "bad_url"
    assert isinstance(raised.value, InvalidRequest) and raised.value.field == "url"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/",
        "http://[::1]:8080/",
        "http://[::ffff:127.0.0.1]/",
        "https://[fd00:ec2::254]/",
        "http://0.0.0.0/",
    ],
)
def test_urls_with_refused_addresses(url: str) -> None:
    with pytest.raises(AddressRefused) as raised:
        check_url(url, AddressPolicy())
    assert raised.value.code == "address_refused"
    assert raised.value.address is not None


def test_good_urls_give_their_parts() -> None:
    target = check_url("HTTPS://Hooks.Example.COM/in/coming?a=1&b=%20", AddressPolicy())
    assert (target.scheme, target.host, target.port, target.target) == (
        "https",
        "hooks.example.com",
        443,
        "/in/coming?a=1&b=%20",
    )
    assert target.authority == "hooks.example.com"
    target = check_url("http://bücher.example:8080", AddressPolicy())
    assert (target.host, target.port, target.target, target.authority) == (
        "xn--bcher-kva.example",
        8080,
        "/",
        "xn--bcher-kva.example:8080",
    )
    target = check_url("http://[::1]:9/x", AddressPolicy(["::1"]))
    assert (target.host, target.authority) == ("::1", "[::1]:9")
    assert check_url("http://8.8.8.8/").host == "8.8.8.8"  # (no policy: nothing allowed, a global address passes)
    assert AddressPolicy().check_url("http://example.com").port == 80


async def test_localhost_resolves_to_loopback_and_is_refused() -> None:
    policy = AddressPolicy()
    target = check_url("http://localhost:8080/hook", policy)  # a name: not looked up here
    with pytest.raises(AddressRefused) as raised:
        await policy.resolve(target.host, target.port)
    assert raised.value.code == "address_refused"
    assert raised.value.address is not None and raised.value.address.is_loopback
    assert str(raised.value).startswith("the host resolves to refused address ")
    assert raised.value.address in await AddressPolicy(["127.0.0.0/8", "::1"]).resolve("localhost", 8080)


async def test_any_refused_address_refuses_the_name(monkeypatch: pytest.MonkeyPatch) -> None:
    policy = AddressPolicy()

    async def lookup(host: str, port: int) -> list[str]:
        return {"good.test": ["93.184.216.34", "2606:2800::1"], "mixed.test": ["93.184.216.34", "10.0.0.5"]}[host]

    monkeypatch.setattr(policy, "lookup", lookup)
    assert [str(a) for a in await policy.resolve("good.test", 443)] == ["93.184.216.34", "2606:2800::1"]
    with pytest.raises(AddressRefused) as raised:
        await policy.resolve("mixed.test", 443)
    assert str(raised.value) == "the host resolves to refused address 10.0.0.5 (private)"
    assert str(raised.value.address) == "10.0.0.5"


async def test_literal_addresses_are_checked_without_a_lookup() -> None:
    policy = AddressPolicy()
    assert [str(a) for a in await policy.resolve("8.8.8.8", 80)] == ["8.8.8.8"]
    with pytest.raises(AddressRefused):
        await policy.resolve("169.254.169.254", 80)
    with pytest.raises(AddressRefused):
        await policy.resolve("::ffff:127.0.0.1", 80)


async def test_a_name_that_does_not_resolve() -> None:
    with pytest.raises(AddressRefused) as raised:
        await AddressPolicy().resolve("no-such-host.invalid", 80)
    assert raised.value.code == "unresolved"
