"""`kickoff bench social` at a tiny size (40 players, 4 friends each, 1 s; an inbox of 120 items): every figure is
there and sane: changes reached friends on the other node, a change wrote at most one row, every inbox item was
listed and followed. No timing is asserted (the figures are the benchmark's). About 4 s."""

from __future__ import annotations

from benchmarks.social import bench_social, social_report


def test_bench_social_measures_presence_across_nodes_and_an_inbox() -> None:
    figures = bench_social(players=40, friends=4, seconds=1.0, items=120)
    presence, inbox = figures["presence"], figures["inbox"]
    assert presence["changes"] == 40 * 4
    assert 0 < presence["seen_by_friends"] <= presence["expected_sightings"] == 40 * 4 * 4
    assert 0 < presence["store_writes_per_change"] <= 1.0, "one upsert a change at most (changes close together merge)"
    assert 0 < presence["presence_reads_per_change"] <= 2.0, "a change is read by the node following it, not all"
    assert presence["delay_p99_ms"] >= presence["delay_p50_ms"] > 0 and presence["cpu_us_per_change"] > 0
    assert inbox["listed"] == inbox["followed"] == 120 and inbox["pages"] == 3
    assert inbox["page_p99_ms"] >= inbox["page_p50_ms"] > 0
    text = social_report(figures)
    for words in ("as a friend on the other node sees it", "store writes a change", "inbox of 120 items"):
        assert words in text
