"""Notebook 16's dashboards, driven without a browser: the KV cache step slider and the
will-it-fit sliders."""

import numpy as np
import pytest
import test_widgets_contract as contract

from course_lib.kv_memory import LLAMA_2_70B, kv_cache_bytes
from course_lib.plots.grid import shown_cells


def test_cache_dashboard_grows_the_cache_one_row_per_step():
    from course_lib.widgets.decoding import DECODE_TOKENS, cache_dashboard

    dash = cache_dashboard(step=0)
    assert dash.readout_text().startswith("step 0 ('the'): cache holds 1 key and value rows")
    first_png = dash.image.value
    dash.controls["step"].value = 4
    text = dash.readout_text()
    assert "cache holds 5 key and value rows" in text
    assert "scores computed now: 5 (one row), recomputing all rows would take 15" in text
    gap = float(text.rsplit("largest difference ", 1)[1])
    assert gap < 1e-12  # the step's output row equals full causal attention's
    assert dash.image.value != first_png
    shown = shown_cells(dash.artists["key"])
    assert shown[:5].all() and not shown[5:].any()
    assert dash.controls["step"].max == len(DECODE_TOKENS) - 1
    assert "run the notebook" in repr(dash).lower()


def test_fit_dashboard_sizes_the_cache_per_layout():
    from course_lib.widgets.decoding import fit_dashboard

    dash = fit_dashboard(tokens=4096, batch=8, budget_gib=40)
    widths = [bar.get_width() for bar in dash.artists["bars"]]
    gqa = kv_cache_bytes(4096, 80, 8, 128, batch=8) / 2**30
    np.testing.assert_allclose(widths, [8 * gqa, gqa, gqa / 8])
    text = dash.readout_text()
    assert "multi-head: 80 GiB, does not fit" in text
    assert "grouped-query: 10 GiB, fits" in text
    assert "multi-query: 1.25 GiB, fits" in text  # as 16's caption says, not rounded to 1.2
    dash.controls["budget_gib"].value = 160
    assert "multi-head: 80 GiB, fits" in dash.readout_text()
    dash.controls["tokens"].value = 32768
    widths = [bar.get_width() for bar in dash.artists["bars"]]
    assert widths[0] == kv_cache_bytes(32768, 80, 64, 128, batch=8) / 2**30
    assert LLAMA_2_70B.name in dash.figure.axes[0].get_title()


@pytest.mark.parametrize("name", ["cache_dashboard", "fit_dashboard"])
def test_both_keep_the_dashboard_contract(name):
    import course_lib.widgets.decoding as module

    make = getattr(module, name)
    contract.test_every_dashboard_keeps_the_contract(make)
    contract.test_moving_the_first_control_changes_the_picture_and_the_readout(make)
