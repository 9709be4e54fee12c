"""Notebooks 11-13: the mask, multi-head and gradient dashboards, driven without a browser."""

import numpy as np

from course_lib import causal_mask, scaled_dot_product_attention

# --- dashboards, driven without a browser ---------------------------------------------------

def test_mask_dashboard_renormalises_over_the_allowed_keys():
    from course_lib.widgets.masks import MASK_TOKENS, mask_dashboard, mask_example

    dash = mask_dashboard(causal_mask(5))
    assert "10 of 25 cells blocked" in dash.readout_text()
    first_png = dash.image.value
    dash.controls["cell_1_3"].value = True  # let "cat" see "on"
    assert "9 of 25 cells blocked" in dash.readout_text()
    assert dash.image.value != first_png
    assert dash.controls["cell_1_3"].description == "✓"
    weights = dash.artists["weights"]["cells"].get_array()
    q, k, v = mask_example()
    mask = np.asarray(causal_mask(5))
    mask[1, 3] = True
    _, want = scaled_dot_product_attention(q, k, v, attn_mask=mask, return_weights=True)
    np.testing.assert_allclose(np.ma.filled(weights, 0.0), want, rtol=1e-12)
    assert dash.artists["weights"]["texts"][1][2].get_text() == "0"
    assert dash.artists["scores"]["texts"][1][2].get_text() == "−∞"
    for j in range(len(MASK_TOKENS)):
        dash.controls[f"cell_0_{j}"].value = False
    assert "fully blocked: the" in dash.readout_text()
    assert "the 0.000" in dash.readout_text()
    assert "run the notebook" in repr(dash)


def test_gradient_dashboard_shows_the_vanishing_gradient():
    from course_lib.widgets.gradients import D_K_CHOICES, gradient_dashboard

    dash = gradient_dashboard(d_k=1)
    assert D_K_CHOICES[0] == 1 and D_K_CHOICES[-1] == 1024
    small = [bar.get_height() for bar in dash.artists["grad_unscaled"]]
    assert max(abs(h) for h in small) > 0.05  # d_k = 1: the scale is 1 either way
    dash.controls["d_k"].value = 1024
    raw = [bar.get_height() for bar in dash.artists["grad_unscaled"]]
    scaled = [bar.get_height() for bar in dash.artists["grad_scaled"]]
    assert max(abs(h) for h in raw) < 1e-6
    assert max(abs(h) for h in scaled) > 0.05
    assert max(bar.get_height() for bar in dash.artists["weights_unscaled"]) > 0.999
    assert dash.readout_text().startswith("d_k = 1024")


def test_heads_dashboard_follows_the_number_of_heads():
    from course_lib.widgets.multihead import heads_dashboard

    dash = heads_dashboard(num_heads=2, head=1)
    assert "d_k = 8 / 2 = 4" in dash.readout_text()
    assert dash.controls["head"].max == 1
    dash.controls["num_heads"].value = 8
    assert dash.controls["head"].max == 7
    assert "√1 = 1.000" in dash.readout_text()
    dash.controls["head"].value = 6
    assert "head 6's largest weight" in dash.readout_text()
    dash.controls["num_heads"].value = 4
    assert dash.controls["head"].value <= 3
    assert "d_k = 8 / 4 = 2" in dash.readout_text()
    visible = [label.get_text() != "" for label in dash.artists["slices"]["labels"]]
    assert visible == [True] * 4 + [False] * 4
