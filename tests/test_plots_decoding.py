"""Notebook 16's pictures: the cache growing step by step, the head groups, the rotating pairs,
the memory bars and a paged cache's block table. Every number drawn is checked against the
math."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from course_lib import scaled_dot_product_attention
from course_lib.plots.decoding import (
    draw_block_table,
    draw_cache_memory,
    draw_cache_step,
    draw_head_groups,
    draw_rotating_pair,
    update_cache_memory,
    update_cache_step,
)
from course_lib.plots.grid import shown_cells
from course_lib.rotary import rotary_embedding
from course_lib.serving import allocate_blocks


@pytest.fixture
def example():
    rng = np.random.default_rng(16)
    return rng.standard_normal((5, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 3))


def test_cache_step_shows_the_rows_written_so_far(example):
    q, k, v = example
    fig, axes = plt.subplots(1, 3)
    artists = draw_cache_step(q, k, v, 2, axes)
    for name, width in (("key", 4), ("weights", 5), ("value", 3)):
        shown = shown_cells(artists[name])
        assert shown[:3].all() and not shown[3:].any(), name
        assert shown.shape == (5, width)
    _, weights = scaled_dot_product_attention(q, k, v, is_causal=True, return_weights=True)
    np.testing.assert_allclose(np.ma.filled(artists["weights"]["cells"].get_array(), 0.0),
                               weights, rtol=1e-12)
    assert artists["frame"].get_bbox().bounds == (-0.5, 1.5, 3.0, 1.0)  # row 2, keys 0–2
    update_cache_step(artists, 4)
    assert shown_cells(artists["value"]).all()
    assert artists["frame"].get_bbox().bounds == (-0.5, 3.5, 5.0, 1.0)
    assert "key cache" in axes[0].get_title() and axes[1].get_xlabel() == "key j"
    plt.close(fig)


@pytest.mark.parametrize(("heads", "kv_heads"), [(8, 2), (8, 8), (6, 1)])
def test_head_groups_join_each_query_head_to_its_key_value_head(heads, kv_heads):
    fig, ax = plt.subplots()
    artists = draw_head_groups(heads, kv_heads, ax)
    assert len(artists["lines"]) == heads
    kv_x = artists["shared"].get_offsets()[:, 0]
    group = heads // kv_heads
    for h, line in enumerate(artists["lines"]):
        xs, ys = line.get_data()
        assert xs[0] == h and xs[1] == pytest.approx(kv_x[h // group]) and list(ys) == [1, 0]
    assert f"{heads} query heads share {kv_heads}" in artists["title"].get_text()
    assert [t.get_text() for t in artists["names"]] == [f"kv {g}" for g in range(kv_heads)]
    assert [t.get_position()[0] for t in artists["names"]] == pytest.approx(list(kv_x))
    plt.close(fig)


def test_rotating_pair_draws_the_rotated_slots():
    x = np.array([1.0, 0.5, 0.0, 0.3])
    fig, ax = plt.subplots()
    artists = draw_rotating_pair(x, [0, 1, 2], 1, ax, base=10.0)
    turned = rotary_embedding(x, np.arange(3), base=10.0)
    tips = [arrow.xy for arrow in artists["arrows"]]
    np.testing.assert_allclose(tips, turned[:, [1, 3]], rtol=1e-12)
    assert artists["labels"] and artists["labels"][0].get_text() == "p=0"
    assert ax.get_xlabel() == "slot 1" and ax.get_ylabel() == "slot 3"
    plt.close(fig)


def test_memory_bars_follow_the_sizes_and_the_budget():
    fig, ax = plt.subplots()
    artists = draw_cache_memory({"multi-head": 80.0, "grouped-query": 10.0}, 40, ax)
    assert [bar.get_width() for bar in artists["bars"]] == [80.0, 10.0]
    assert "too big" in artists["labels"][0].get_text()
    assert "too big" not in artists["labels"][1].get_text()
    update_cache_memory(artists, {"multi-head": 20.0, "grouped-query": 1.25}, 100)
    assert [bar.get_width() for bar in artists["bars"]] == [20.0, 1.25]
    assert artists["labels"][1].get_text().strip() == "1.25 GiB"  # as the caption says
    assert artists["labels"][0].get_text().strip() == "20 GiB"
    assert list(artists["budget"].get_xdata()) == [100, 100]
    assert ax.get_xlim()[1] >= 100 and "too big" not in artists["labels"][0].get_text()
    plt.close(fig)


def test_block_table_joins_each_logical_block_to_its_physical_block():
    lengths, page_size = [7, 3, 5], 2
    table = allocate_blocks(lengths, page_size)  # blocks taken in turn: scattered
    fig, ax = plt.subplots()
    artists = draw_block_table(table, lengths, page_size, num_blocks=10, ax=ax)
    assert len(artists["logical"]) == len(artists["links"]) == 4 + 2 + 3
    assert len(artists["physical"]) == 10
    used = [(b, i) for b, n in enumerate(lengths) for i in range(-(-n // page_size))]
    for (b, i), fill, link in zip(used, artists["logical"], artists["links"], strict=True):
        xs, _ = link.get_data()
        physical = artists["physical"][table[b, i]]
        assert xs[0] == pytest.approx(fill.get_x() + 0.5)  # from logical block i of sequence b
        assert xs[1] == pytest.approx(physical.get_x() + 0.5)  # to physical block table[b, i]
        filled = min(page_size, lengths[b] - i * page_size) / page_size
        assert fill.get_width() == physical.get_width() == pytest.approx(filled)
    assert artists["physical"][9].get_width() == 0  # block 9: free
    texts = [t.get_text() for t in artists["labels"]]
    assert "free" in texts and "→ 8" in texts and "s0, 3" in texts
    assert "9 of 10 in use" in artists["title"].get_text()
    plt.close(fig)
