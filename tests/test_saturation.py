"""The statistics of notebook 08's pictures, against independent loop computations: the spread
of darts, the saturation of raw scores and the gradient that reaches q by the chain rule."""

import math

import numpy as np
import pytest

from course_lib.reference import softmax_loop
from course_lib.saturation import (
    SATURATED,
    SCALINGS,
    dart_spread,
    density,
    query_gradient_norm,
    spread,
    spread_statistics,
)


def _jacobian_loop(p):
    return [[(p[i] if i == j else 0.0) - p[i] * p[j] for j in range(len(p))]
            for i in range(len(p))]


def _frobenius(rows):
    return math.sqrt(sum(x * x for row in rows for x in row))


def test_spread_is_the_root_of_the_average_squared_distance_from_the_mean():
    assert spread([-1.0, 0.0, 1.0, 0.0]) == pytest.approx(math.sqrt(0.5))  # notebook 08's example
    assert spread([-4.0, 0.0, 4.0, 0.0]) == pytest.approx(4 * math.sqrt(0.5))  # × 4: spread × 4
    assert spread([5.0, 7.0]) == pytest.approx(1.0)  # around the mean 6, not around 0


def test_dart_spread_is_one_coordinates_spread_around_the_mean_dart():
    throws = np.array([[1.0, 0.0], [0.0, -2.0], [-1.0, 1.0], [0.5, 0.5]])
    centre, radius = dart_spread(throws)
    mean = [sum(t[c] for t in throws) / 4 for c in range(2)]
    variances = [sum((t[c] - mean[c]) ** 2 for t in throws) / 4 for c in range(2)]
    assert centre.tolist() == pytest.approx(mean)
    assert radius == pytest.approx(math.sqrt(sum(variances) / 2))
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        dart_spread([1.0, 2.0, 3.0])


def test_query_gradient_norm_is_the_chain_rule_product():
    rng = np.random.default_rng(3)
    key = rng.standard_normal((5, 3))
    p = softmax_loop(list(rng.standard_normal(5)))
    jacobian = _jacobian_loop(p)
    scale = 0.4
    reach = [[scale * sum(jacobian[i][t] * key[t][c] for t in range(5)) for c in range(3)]
             for i in range(5)]  # ∂p_i/∂q_c = Σ_t J_it · scale · K_tc
    assert float(query_gradient_norm(p, key, scale)) == pytest.approx(_frobenius(reach))
    batch = query_gradient_norm(np.array([p, p]), np.array([key, key]), scale)
    assert batch.shape == (2,)


def test_spread_statistics_against_an_independent_computation():
    d_k, size, keys, seed = 8, 96, 6, 5
    stats = spread_statistics(d_k, size=size, keys=keys, seed=seed)
    rng = np.random.default_rng(seed)  # the same draws, in the same order
    rows = size // keys
    q, k = rng.standard_normal((rows, 1, d_k)), rng.standard_normal((rows, keys, d_k))
    raw = [[sum(float(a) * float(b) for a, b in zip(q[r, 0], k[r, j], strict=True))
            for j in range(keys)] for r in range(rows)]
    multipliers = {"raw": 1.0, "scaled": 1 / math.sqrt(d_k), "over": 1 / d_k}
    assert list(stats["multiplier"]) == list(SCALINGS)
    for name, c in multipliers.items():
        assert stats["multiplier"][name] == pytest.approx(c)
        scores = [[s * c for s in row] for row in raw]
        flat = [s for row in scores for s in row]
        assert np.allclose(stats["samples"][name], flat)
        mean = sum(flat) / len(flat)
        assert stats["variance"][name] == pytest.approx(
            sum((s - mean) ** 2 for s in flat) / len(flat))
        weights = [softmax_loop(row) for row in scores]
        assert weights
        assert stats["largest_weight"][name] == pytest.approx(
            sum(max(w) for w in weights) / rows)
        assert stats["saturated"][name] == pytest.approx(
            sum(max(w) >= SATURATED for w in weights) / rows)
        sizes = [_frobenius(_jacobian_loop(w)) for w in weights]
        assert stats["sensitivity"][name] == pytest.approx(float(np.median(sizes)))
        assert stats["sensitivity_mean"][name] == pytest.approx(sum(sizes) / rows)
        reach = [float(query_gradient_norm(w, k[r], c)) for r, w in enumerate(weights)]
        assert stats["gradient"][name] == pytest.approx(float(np.median(reach)))


@pytest.mark.parametrize("d_k", [1, 4, 64, 512])
def test_variance_is_d_k_raw_and_one_scaled(d_k):
    stats = spread_statistics(d_k, size=2000)
    # the sample variance of 2000 draws of q·k has relative standard error √((2 + 6/d_k)/2000)
    rel = 5 * math.sqrt((2 + 6 / d_k) / 2000)  # five standard errors
    assert stats["variance"]["raw"] == pytest.approx(d_k, rel=rel)
    assert stats["variance"]["scaled"] == pytest.approx(1.0, rel=rel)
    assert stats["variance"]["over"] == pytest.approx(1.0 / d_k, rel=rel)


def test_raw_saturates_over_shrunk_starves_and_scaled_keeps_both():
    small, big = spread_statistics(1), spread_statistics(512)
    # raw q·k: most rows one-hot, the median row's softmax passes almost nothing back
    assert big["saturated"]["raw"] > 0.5 and small["saturated"]["raw"] < 0.05
    assert big["sensitivity"]["raw"] < 0.05 * big["sensitivity"]["scaled"]
    assert big["sensitivity_mean"]["raw"] > 10 * big["sensitivity"]["raw"]  # a mean hides it
    # ÷ d_k: softmax looks healthy, but the chain-rule factor scale × ∥k∥ = 1/√d_k starves q
    assert big["sensitivity"]["over"] > 0.2
    assert big["gradient"]["over"] < 0.05 * big["gradient"]["scaled"]
    # ÷ √d_k: about the same at every d_k
    middle = spread_statistics(16)
    for key in ("sensitivity", "gradient", "largest_weight"):
        assert big[key]["scaled"] == pytest.approx(middle[key]["scaled"], rel=0.2)
    assert big["saturated"]["scaled"] == 0.0


def test_density_is_the_share_per_unit_in_each_bin():
    samples = np.random.default_rng(2).standard_normal(400)
    edges = np.linspace(-3.0, 3.0, 13)
    counts = [sum(lo <= s < hi for s in samples) for lo, hi in zip(edges[:-1], edges[1:],
                                                                   strict=True)]
    counts[-1] += int(np.sum(samples == edges[-1]))  # the last bin includes its right edge
    assert np.allclose(density(samples, edges), np.array(counts) / (400 * 0.5))
    inside = (np.abs(samples) <= 3.0).mean()
    assert float(np.sum(density(samples, edges) * 0.5)) == pytest.approx(inside)


def test_notebook_07s_numbers_come_from_softmax_and_its_jacobian():
    from course_lib import jacobian_norm, softmax, softmax_jacobian
    from course_lib.saturation import sensitivity_curve, slope_numbers, softmax_sensitivity

    scores, factors = np.array([2.0, 1.0, 0.1]), np.array([0.0, 1.0, 4.0])
    weights, jacobian, size = softmax_sensitivity(scores, 4.0)
    np.testing.assert_allclose(weights, softmax(4.0 * scores), rtol=1e-15)
    np.testing.assert_allclose(jacobian, softmax_jacobian(weights), rtol=1e-15)
    assert size == pytest.approx(float(jacobian_norm(weights)), rel=1e-15)
    curve = sensitivity_curve(scores, factors)
    assert curve.tolist() == pytest.approx([float(jacobian_norm(softmax(f * scores)))
                                            for f in factors], rel=1e-12)
    assert curve[0] > curve[1] > curve[2]  # sharper scores, smaller sensitivity
    numbers = slope_numbers(scores, 1, 1.0, 1e-4, np.array([0.0, 1.0]))
    p = float(softmax(scores)[1])
    assert numbers["slope"] == pytest.approx(p * (1 - p), rel=1e-12)
    assert numbers["moved"] == pytest.approx(numbers["predicted"], rel=1e-3)  # small nudge
    assert numbers["curve"][1] == pytest.approx(p, rel=1e-15)
