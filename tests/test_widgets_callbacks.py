"""Every dashboard's callback called directly (no slider, no observer), for two or three
settings: the readout it returns holds the number the math function gives for that setting.

``dash.callback`` is the function the dashboard runs at each slider move; it takes the
controls' values as keyword arguments and returns the readout text.
"""

import math

import numpy as np
import pytest

from course_lib import (
    causal_mask,
    dot,
    jacobian_norm,
    multi_head_attention,
    norm,
    scaled_dot_product_attention,
    score_gradients,
    softmax,
)
from course_lib.examples import designed_sentence
from course_lib.online_view import online_softmax_view
from course_lib.reference import attention_loop, dot_loop
from course_lib.saturation import scaling_multipliers, spread_statistics
from course_lib.summation import sigma
from course_lib.text import fmt


def _call(dash, **values):
    """Run the dashboard's callback for the current values changed by ``values``."""
    return dash.callback(**{**dash.values(), **values})


@pytest.mark.parametrize(("q1", "q2"), [(3.0, 4.0), (-1.5, 2.0), (0.5, -0.5)])
def test_norm_callback_reads_the_norm(q1, q2):
    from course_lib.widgets.norm import norm_dashboard

    assert _call(norm_dashboard(), q1=q1, q2=q2).endswith(f"= {fmt(norm([q1, q2]), 3)}")


@pytest.mark.parametrize("count", [1, 4, 8])
def test_summation_callback_reads_the_sum(count):
    from course_lib.widgets.summation import EXAMPLE_SLOTS, summation_dashboard

    text = _call(summation_dashboard(), count=count)
    assert text.endswith(f"= {fmt(sigma(EXAMPLE_SLOTS, 1, count), 2)}")


@pytest.mark.parametrize("angle", [0.0, 60.0, 135.0])
def test_dot_callback_reads_the_dot_product(angle):
    from course_lib.widgets.dot_product import dot_dashboard, dot_vectors

    dash = dot_dashboard()
    q, k = dot_vectors(angle, dash.values()["length_q"], dash.values()["length_k"])
    assert fmt(float(dot(q, k)), 3) in _call(dash, angle=angle)


@pytest.mark.parametrize(("n", "m", "d_k"), [(1, 1, 1), (3, 5, 4), (6, 2, 5)])
def test_shapes_callback_reads_the_shape_of_s(n, m, d_k):
    from course_lib.widgets.matrices import shapes_dashboard

    text = _call(shapes_dashboard(), n=n, m=m, d_k=d_k)
    products = "1 dot product" if n * m == 1 else f"{n * m} dot products"
    slots = "1 slot" if d_k == 1 else f"{d_k} slots"
    assert f"the score grid S is {n}×{m}: {products} of {slots} each" in text


@pytest.mark.parametrize(("i", "j"), [(1, 1), (2, 3), (3, 4)])
def test_product_callback_reads_the_dot_product_of_row_i_and_key_j(i, j):
    from course_lib.widgets.matrices import product_dashboard, product_example

    query, key = product_example()
    text = _call(product_dashboard(), i=i, j=j)
    assert f"= {fmt(dot_loop(query[i - 1], key[j - 1]), 0)}   (row {i} of Q" in text


@pytest.mark.parametrize("factor", [0.0, 2.5, 10.0])
def test_saturation_callback_reads_max_weight_and_sensitivity(factor):
    from course_lib.widgets.softmax import SATURATION_SCORES, saturation_dashboard

    weights = softmax(factor * np.array(SATURATION_SCORES))
    text = _call(saturation_dashboard(), factor=factor)
    assert f"max weight = {fmt(weights.max(), 3)}" in text
    assert text.endswith(f"∥J∥ = {fmt(jacobian_norm(weights), 4)}")


@pytest.mark.parametrize("d_k", [1, 64, 512])
def test_dk_callback_reads_the_saturation_statistics(d_k):
    from course_lib.widgets.variance import dk_dashboard, dk_readout

    stats = spread_statistics(d_k)
    text = _call(dk_dashboard(), d_k=d_k)
    assert text == dk_readout(stats) and text.startswith(f"d_k = {d_k} · variance: raw ")
    assert f"one-hot rows: raw {fmt(100 * stats['saturated']['raw'], 0)}%" in text
    assert f"÷d_k {fmt(stats['gradient']['over'], 3)}" in text


@pytest.mark.parametrize(("query", "scaling", "d_k"),
                         [(2, "scaled", 4), (4, "raw", 64), (6, "over", 256)])
def test_attention_callback_reads_the_weights_and_output(query, scaling, d_k):
    from course_lib.widgets.attention import attention_dashboard

    words, q, k, v = designed_sentence(d_k)
    scale = scaling_multipliers(d_k)[scaling]
    output, weights = scaled_dot_product_attention(q, k, v, scale=scale, return_weights=True)
    text = _call(attention_dashboard(), query=query, scaling=scaling, d_k=d_k)
    for j, weight in enumerate(weights[query - 1]):
        assert f"{words[j]}{'₁₂₃₄₅₆'[j]} {fmt(weight, 2)}" in text
    assert text.endswith("[" + ", ".join(fmt(x, 3) for x in output[query - 1]) + "]")
    if scaling == "scaled":  # the default scale: the loop twin agrees
        loop_out, _ = attention_loop(q, k, v)
        assert text.endswith("[" + ", ".join(fmt(x, 3) for x in loop_out[query - 1]) + "]")


@pytest.mark.parametrize("open_cell", [None, (1, 3), (0, 4)])
def test_mask_callback_reads_the_row_sums_and_blocked_cells(open_cell):
    from course_lib.widgets.masks import MASK_TOKENS, mask_dashboard, mask_example

    mask = np.array(causal_mask(5))
    if open_cell is not None:
        mask[open_cell] = True
    cells = {f"cell_{i}_{j}": bool(mask[i, j]) for i in range(5) for j in range(5)}
    text = mask_dashboard().callback(**cells)
    _, weights = scaled_dot_product_attention(*mask_example(), attn_mask=mask,
                                              return_weights=True)
    assert f"{int((~mask).sum())} of 25 cells blocked" in text
    for token, total in zip(MASK_TOKENS, weights.sum(axis=-1), strict=True):
        assert f"{token} {total:.3f}" in text


@pytest.mark.parametrize(("num_heads", "head"), [(1, 0), (2, 1), (8, 5)])
def test_heads_callback_reads_the_largest_weight_of_the_head(num_heads, head):
    from course_lib.widgets.multihead import heads_dashboard, heads_example

    x, projections = heads_example()
    _, weights = multi_head_attention(x, x, x, *projections, num_heads, return_weights=True)
    text = _call(heads_dashboard(), num_heads=num_heads, head=head)
    d_k = 8 // num_heads
    assert f"d_k = 8 / {num_heads} = {d_k}" in text and f"√{d_k} = {math.sqrt(d_k):.3f}" in text
    assert text.endswith(f"head {head}'s largest weight: {weights[head].max():.3f}")


@pytest.mark.parametrize("d_k", [1, 64, 1024])
def test_gradient_callback_reads_the_largest_weights_and_gradients(d_k):
    from course_lib.widgets.gradients import gradient_dashboard, gradient_example

    weights_s, grad_s = score_gradients(*gradient_example(d_k))
    weights_u, grad_u = score_gradients(*gradient_example(d_k), scale=1.0)
    text = _call(gradient_dashboard(), d_k=d_k)
    assert (f"largest weight {weights_s.max():.3f} with ÷√d_k, {weights_u.max():.3f} without"
            in text)
    assert f"{np.abs(grad_s).max():.2e} with, {np.abs(grad_u).max():.2e} without" in text


@pytest.mark.parametrize(("query_index", "blocks_seen"), [(0, 1), (2, 3), (3, 6)])
def test_tiled_callback_reads_the_running_statistics(query_index, blocks_seen):
    from course_lib.widgets.tiled import tiled_dashboard, tiled_example

    view = online_softmax_view(*tiled_example(), 4, query_index, blocks_seen)
    text = _call(tiled_dashboard(), query_index=query_index, blocks_seen=blocks_seen)
    assert f"running max M′ = {fmt(view['running_max'], 3)}" in text
    assert f"rescale e^(M − M′) = {fmt(view['rescale'], 3)}" in text
    assert f"running sum l = {fmt(view['running_sum'], 3)}" in text
    assert text.endswith(f"distance to the full output {fmt(view['distance'], 3)}")


@pytest.mark.parametrize(("log2_n", "grids", "bytes_per_number"), [(10, 1, 2), (15, 8, 4),
                                                                    (18, 64, 8)])
def test_fit_callback_reads_the_memory_of_both_formulas(log2_n, grids, bytes_per_number):
    from course_lib.widgets.gpu import fit_dashboard, fit_numbers

    grid, tiled = fit_numbers(log2_n, grids, bytes_per_number)
    text = _call(fit_dashboard(), log2_n=log2_n, grids=grids, bytes_per_number=bytes_per_number)
    assert f"needs {grid:.2f} GiB" in text and f"needs {tiled:.3f} GiB" in text
