"""Notebooks 14 and 15: the online-softmax picture and dashboard, the memory pictures and the
timing picture, and the memory numbers the notebooks quote."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from course_lib import scaled_dot_product_attention
from course_lib.tiled_memory import attention_memory


def test_memory_numbers_quoted_in_the_notebooks():
    grid, tiled = attention_memory(32768, 32768, 64, 64)
    assert grid == 4 * 2**30  # 32768² float32 = 4 GiB
    assert tiled < 64 * 2**20
    assert attention_memory(4, 6, 2, 3, block_size=(2, 4), itemsize=8) == (
        4 * 6 * 8, (2 * 4 + 4 * 2 + 4 * 3 + 2 * 4) * 8)
    with pytest.raises(ValueError, match="n must be a positive int"):
        attention_memory(0, 4, 2, 2)


# ---------------------------------------------------------------------------------------------
# The online-softmax picture and dashboard (notebook 14)
# ---------------------------------------------------------------------------------------------

def test_view_converges_to_the_full_result():
    from course_lib.online_view import online_softmax_view
    from course_lib.widgets.tiled import tiled_example

    query, key, value = tiled_example()
    first = online_softmax_view(query, key, value, 4, 1, 1)
    last = online_softmax_view(query, key, value, 4, 1, first["blocks"])
    assert first["blocks"] == 6
    assert np.all(first["weights"][4:] == 0) and math.isclose(first["weights"].sum(), 1.0)
    np.testing.assert_allclose(last["weights"], last["final_weights"], rtol=1e-12)
    expected = scaled_dot_product_attention(query, key, value)[1]
    np.testing.assert_allclose(last["outputs"][-1], expected, rtol=1e-12, atol=1e-14)
    assert last["outputs"].shape == (6, 2)
    assert last["running_max"] == pytest.approx(last["scores"].max(), rel=1e-15)
    with pytest.raises(ValueError, match="blocks_seen"):
        online_softmax_view(query, key, value, 4, 1, 7)


def test_dashboard_moves_its_artists():
    from course_lib.widgets.tiled import tiled_dashboard

    dash = tiled_dashboard()
    assert dash.readout_text().startswith("query 0, block 1 of 6 (keys 0–3)")
    assert "course_lib" not in repr(dash) and "static picture" in repr(dash)
    before = dash.image.value
    dash.controls["blocks_seen"].value = 6
    assert "distance to the full output 0.000" in dash.readout_text()
    path_x, _ = dash.artists["path"].get_data()
    assert len(path_x) == 6
    assert dash.image.value != before
    dash.controls["query_index"].value = 3
    heights = [bar.get_height() for bar in dash.artists["weight_bars"]]
    assert len(heights) == 24 and math.isclose(sum(heights), 1.0, rel_tol=1e-12)


def test_memory_picture_lines():
    from course_lib.plots.tiled import draw_memory_growth

    fig, ax = plt.subplots()
    try:
        lines = draw_memory_growth([1024, 32768], ax=ax)
        assert lines["grid"].get_ydata()[-1] == pytest.approx(4.0)
        assert lines["tiled"].get_ydata()[-1] < 64 / 1024
    finally:
        plt.close(fig)


# ---------------------------------------------------------------------------------------------
# The memory dashboard and the timing picture (notebook 15)
# ---------------------------------------------------------------------------------------------

def test_fit_numbers_match_the_memory_count():
    from course_lib.widgets.gpu import fit_numbers

    grid, tiled = fit_numbers(15, 8, 4)
    assert grid == 32.0  # 8 grids of 32768² float32 scores
    expected_tiled = 8 * (4096 * 4096 + 32768 * (64 + 64 + 2)) * 4 / 2**30  # a block per grid
    assert tiled == pytest.approx(expected_tiled, rel=1e-12)


def test_fit_dashboard_says_when_the_grid_does_not_fit():
    from course_lib.widgets.gpu import fit_dashboard

    dash = fit_dashboard(log2_n=15, grids=8, bytes_per_number=4, gpu_gib=80)
    assert "needs 32.00 GiB and fits in 80 GiB" in dash.readout_text()
    dash.controls["log2_n"].value = 17
    assert "512.00 GiB and does NOT fit" in dash.readout_text()
    assert dash.artists["bars"][0].get_width() == pytest.approx(512.0)
    dash.controls["bytes_per_number"].value = 2
    assert dash.artists["bars"][0].get_width() == pytest.approx(256.0)
    dash.controls["gpu_gib"].value = 144
    assert list(dash.artists["gpu"].get_xdata()) == [144, 144]


# ---------------------------------------------------------------------------------------------
# The kernel's shared memory (notebook 15)
# ---------------------------------------------------------------------------------------------

def test_block_memory_shows_the_kernels_layout_and_the_bank_conflict():
    from course_lib.fast.gpu_kernel import halving_rounds, shared_memory_bytes, shared_words
    from course_lib.plots.gpu import draw_block_memory
    from course_lib.plots.style import course_style, detached_figure

    with course_style():
        drawn = draw_block_memory(shared_words(8, 4), shared_words(32, 4, 0),
                                  shared_words(32, 4, 1), halving_rounds([0.5, -1.0, 1.5, 2.0]),
                                  fig=detached_figure((11, 6.6)))
    strip = drawn["axes"]["strip"]
    assert len(strip.patches) * 4 == shared_memory_bytes(8, 4)  # one square per word
    assert sum(p.get_hatch() == "///" for p in strip.patches) == 4  # one pad per key row
    assert drawn["banks_unpadded"] == [0, 0, 0, 0]  # d_k = 32 apart: one bank
    assert drawn["banks_padded"] == [0, 1, 2, 3]  # 33 apart: four banks
    from course_lib.fast.gpu_kernel import BANKS
    from course_lib.plots import gpu

    assert gpu.BANKS == BANKS  # the picture folds at the kernel's bank count
    halving = drawn["axes"]["halving"]
    assert sum("barrier (d)" in t.get_text() for t in halving.texts) == 2
    assert [t.get_text() for t in halving.texts if t.get_text() in ("2", "1.5")][-4:] == [
        "2", "2", "1.5", "2"]  # the last round's tile: the maximum 2 in slot 0


def test_memory_fit_label_sits_right_of_the_gpu_line():
    from course_lib.plots.gpu import draw_memory_fit
    from course_lib.plots.style import course_style, detached_figure

    with course_style():
        artists = draw_memory_fit(256.0, 1.5, 80.0, ax=detached_figure().add_subplot())
    label = artists["gpu_label"]
    assert label.get_ha() == "left" and label.get_position()[0] > 80.0
