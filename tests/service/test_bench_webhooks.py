"""`kickoff bench webhooks` at a tiny size against a real server: every delivery arrives once and verifies, both
sides of the CPU rounds play moves, and idle correspondence rooms rest and stay resting across a restart. No
timing is asserted (the figures are the benchmark's); a rest of one second keeps it short."""

from __future__ import annotations

from benchmarks.webhooks import bench_webhooks, webhooks_report


def test_bench_webhooks_delivers_everything_once_and_idle_rooms_rest() -> None:
    figures = bench_webhooks(deliveries=100, rooms=2, seconds=1.0, rounds=1, idle=20, quiet=1.0, rest=1.0)
    through, cpu, idle = figures["throughput"], figures["cpu"], figures["idle"]
    assert through["delivered"] == through["deliveries"] == 100
    assert through["repeats"] == through["bad_signatures"] == 0 and through["deliveries_per_s"] > 0
    assert cpu["moves_with_deliveries"] > 0 and cpu["deliveries"] > 0 and cpu["bad_signatures"] == 0
    assert cpu["server_cpu_us_per_move_with_deliveries"] > 0 and cpu["server_cpu_us_per_move_without"] > 0
    assert idle["rooms"] == 20 and idle["rss_mb_in_memory"] > 0 and idle["rss_mb_restarted"] > 0
    text = webhooks_report(figures)
    for words in ("deliveries/s to a loopback receiver", "alternating rounds", "idle correspondence rooms"):
        assert words in text
