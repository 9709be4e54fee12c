"""Notebook 14's tile, traffic and low-precision pictures: they draw the math's numbers."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from course_lib.plots.low_precision import draw_accumulation_errors
from course_lib.plots.tiles import TILE_STYLE, draw_causal_tiles, draw_memory_traffic
from course_lib.tiles import SKIPPED, causal_tiles, memory_traffic


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


@pytest.mark.parametrize(("n", "m", "block"), [(40, 56, 8), (30, 30, (8, 5)), (5, 3, 4)])
def test_one_rectangle_per_tile_coloured_by_its_state(ax, n, m, block):
    artists = draw_causal_tiles(n, m, block, ax=ax)
    states = causal_tiles(n, m, block).states.ravel()
    assert len(artists["tiles"]) == states.size > 0
    for rect, state in zip(artists["tiles"], states, strict=True):
        face, hatch, _ = TILE_STYLE[int(state)]
        assert np.allclose(rect.get_facecolor()[:3], plt.matplotlib.colors.to_rgb(face))
        assert (rect.get_hatch() or "") == hatch
    covered = sum(r.get_width() * r.get_height() for r in artists["tiles"])
    assert covered == n * m  # the tiles cover the grid exactly once
    skipped = int(np.sum(states == SKIPPED))
    assert f"{skipped} skipped" in ax.get_title()
    assert ax.get_xlabel().startswith("key j") and ax.get_ylabel().startswith("query i")
    assert len(artists["legend"].get_texts()) == 3


def test_traffic_bars_are_the_counted_bytes(ax):
    artists = draw_memory_traffic(2048, d=64, block_size=128, itemsize=2, ax=ax)
    traffic = memory_traffic(2048, 2048, 64, 64, 128, 2)
    heights = [b.get_height() * 2**20 for b in artists["grid"]] + \
              [b.get_height() * 2**20 for b in artists["tiled"]]
    expected = [traffic.forward_grid, traffic.backward_grid, traffic.forward_tiled,
                traffic.backward_tiled]
    np.testing.assert_allclose(heights, expected, rtol=1e-12)
    assert "MiB" in ax.get_ylabel() and "2048" in ax.get_title()
    assert all(text.get_text().endswith("MiB") for labels in artists["labels"] for text in labels)


def test_error_lines_carry_the_given_errors(ax):
    errors = {"float32": [3e-3, 2e-3, 3e-3], "low": [2e-2, 6e-2, 4e-1]}
    artists = draw_accumulation_errors([64, 256, 1024], errors, "bfloat16", ax=ax)
    assert artists["low"].get_ydata().tolist() == errors["low"]
    assert artists["float32"].get_xdata().tolist() == [64, 256, 1024]
    assert artists["rounding"].get_ydata()[0] == pytest.approx(2.0**-8)  # half of 2⁻⁷
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "bfloat16" in ax.get_title() and ax.get_xlabel() == "number of keys m"
    assert "p_rounded" not in artists  # drawn only when given


def test_the_rounded_p_line_is_drawn_when_given(ax):
    errors = {"float32": [3e-3, 2e-3], "low": [2e-2, 6e-2], "p_rounded": [3.5e-3, 3.2e-3]}
    artists = draw_accumulation_errors([64, 256], errors, "float16", ax=ax)
    assert artists["p_rounded"].get_ydata().tolist() == errors["p_rounded"]
    assert artists["p_rounded"].get_xdata().tolist() == [64, 256]
    assert "P rounded to float16" in artists["p_rounded"].get_label()
    labels = [line.get_label() for line in ax.get_legend().get_lines()]
    assert artists["p_rounded"].get_label() in labels
