"""`kickoff bench webhooks` at a tiny size against a real server: every delivery arrives once and verifies, and both
sides of the CPU rounds play moves. No timing is asserted (the figures are the benchmark's). The idle rooms' part
is left to make bench (three server starts and the wait for rooms to rest: some 12 s here); resting itself is tested
in tests/server/test_correspondence.py."""

from __future__ import annotations

from benchmarks.webhooks import bench_webhooks, webhooks_report


def test_bench_webhooks_delivers_everything_once() -> None:
    figures = bench_webhooks(deliveries=100, rooms=2, seconds=1.0, rounds=1, idle=0)
    through, cpu = figures["throughput"], figures["cpu"]
    assert through["delivered"] == through["deliveries"] == 100
    assert through["repeats"] == through["bad_signatures"] == 0 and through["deliveries_per_s"] > 0
    assert cpu["moves_with_deliveries"] > 0 and cpu["deliveries"] > 0 and cpu["bad_signatures"] == 0
    assert cpu["server_cpu_us_per_move_with_deliveries"] > 0 and cpu["server_cpu_us_per_move_without"] > 0
    text = webhooks_report(figures)
    for words in ("deliveries/s to a loopback receiver", "alternating rounds"):
        assert words in text
