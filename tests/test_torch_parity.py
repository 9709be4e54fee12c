"""Parity with PyTorch: its recorded answers in every run, live comparisons where it is installed.

``tests/data/torch_*.npz`` hold seeded inputs and PyTorch's outputs, made by
``tools/make_torch_fixtures.py`` (see CONTRIBUTING, "Regenerating the PyTorch fixtures"):
``F.scaled_dot_product_attention`` (bool and float masks with −∞, ``is_causal`` top-left
aligned with n < m and n > m, ``scale``, float32 and float64, fully masked rows, broadcast
batch axes), its autograd gradients, and ``nn.MultiheadAttention`` holding given weights.
The course must give the same numbers on every case, without PyTorch. Where PyTorch is
installed, the generator runs again in memory and must give exactly the stored arrays (a
hand-edited fixture fails), and the live comparisons below run too; without it they skip
with one line (the only skips allowed here, also under CI=true).

The conventions the course shares with PyTorch: ``scale`` multiplies the scores (default
1/√d_k), a boolean mask is True where attention is allowed, a float mask is added to the
scores, ``is_causal`` is the top-left aligned lower triangle also when n ≠ m, and a row whose
keys are all masked gives zeros.
"""

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

from course_lib import (
    attention_gradients,
    causal_mask,
    multi_head_attention,
    scaled_dot_product_attention,
)
from course_lib.examples import multihead_layer_example

try:
    import torch
except ImportError:
    torch = None

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
GENERATOR = ROOT / "tools" / "make_torch_fixtures.py"


@pytest.fixture
def live_torch():
    """Skip (one line for all of them) where PyTorch is not installed."""
    if torch is None:
        pytest.skip("PyTorch is not installed: live comparisons skipped (tests/data's "
                    "fixtures cover them)")
    return torch


def needs_torch(test):
    """A live comparison: marked ``torch`` and skipped where PyTorch is not installed."""
    return pytest.mark.torch(pytest.mark.usefixtures("live_torch")(test))

F = None if torch is None else torch.nn.functional


# ---------------------------------------------------------------------------------------------
# PyTorch's recorded answers, in every run

def course_sdpa(a, kwargs):
    return {"output": scaled_dot_product_attention(
        a["query"], a["key"], a["value"], attn_mask=a.get("attn_mask"), **kwargs)}


def course_gradients(a, kwargs):
    grads = attention_gradients(a["query"], a["key"], a["value"], a["grad_output"],
                                attn_mask=a.get("attn_mask"), **kwargs)
    return dict(zip(("grad_query", "grad_key", "grad_value"), grads, strict=True))


def course_multihead(a, kwargs):
    if "in_proj_weight" in a:  # PyTorch's layout with biases: x W_Qᵀ + b_Q = [x | 1] [W_Qᵀ; b_Q]
        x = np.concatenate([a["x"], np.ones((len(a["x"]), 1))], axis=1)
        w_q, w_k, w_v = (np.vstack([w.T, b[None]]) for w, b in zip(
            np.split(a["in_proj_weight"], 3), np.split(a["in_proj_bias"], 3), strict=True))
        output, weights = multi_head_attention(x, x, x, w_q, w_k, w_v, a["out_proj_weight"].T,
                                               kwargs["num_heads"], return_weights=True)
        xb = a["x_batch"].swapaxes(0, 1)  # (n, batch, d) → (batch, n, d)
        xb = np.concatenate([xb, np.ones(xb.shape[:-1] + (1,))], axis=-1)
        batch = multi_head_attention(xb, xb, xb, w_q, w_k, w_v, a["out_proj_weight"].T,
                                     kwargs["num_heads"],
                                     attn_mask=~a["key_padding_mask"][:, None, :])
        return {"output": output + a["out_proj_bias"], "weights": weights,
                "batch_output": (batch + a["out_proj_bias"]).swapaxes(0, 1)}
    output, weights = multi_head_attention(
        a["query_input"], a["key_input"], a["value_input"], a["w_q"], a["w_k"], a["w_v"],
        a["w_o"], kwargs["num_heads"], attn_mask=a.get("attn_mask"), return_weights=True)
    return {"output": output, "weights": weights}


def course_lower_right(a, kwargs):
    mask = causal_mask(kwargs["n"], kwargs["m"], align="bottom-right")
    return {"output": scaled_dot_product_attention(a["query"], a["key"], a["value"],
                                                   attn_mask=mask)}


def course_low_precision(a, kwargs):
    kwargs = dict(kwargs)
    dtype = low_precision_dtype(kwargs.pop("dtype"))
    output = scaled_dot_product_attention(*(a[k].astype(dtype) for k in ("query", "key", "value")),
                                          **kwargs)
    assert output.dtype == dtype  # low precision in, the same precision out
    return {"output_as_float32": output.astype(np.float32)}


def low_precision_dtype(name):
    if name == "bfloat16":
        import ml_dtypes  # a dependency of the course (requirements.txt)

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


# kind (tests/data/torch_<kind>.npz) → the course's call; a new kind in the generator's KINDS
# needs its entry here (test_every_fixture_file_has_a_course_call says so).
COURSE_CALLS = {"sdpa": course_sdpa, "gradients": course_gradients, "multihead": course_multihead,
                "gqa": course_sdpa, "lower_right": course_lower_right,
                "low_precision": course_low_precision}
TOLERANCE = {  # float64 agrees to rounding; float32 within a few units in the last place
    "float64": {"rtol": 1e-10, "atol": 1e-12},
    "float32": {"rtol": 2e-5, "atol": 2e-6},
}


def load_fixture(kind):
    """{case: (arrays, kwargs)} from tests/data/torch_<kind>.npz (a missing file fails)."""
    path = DATA / f"torch_{kind}.npz"
    with np.load(path) as stored:
        arrays = {key: stored[key] for key in stored.files}
    cases = {}
    for key, array in arrays.items():
        case, name = key.rsplit("/", 1)
        if case != "meta":
            cases.setdefault(case, ({}, {}))[0][name] = array
    for found, kwargs in cases.values():
        kwargs.update(json.loads(str(found.pop("kwargs"))))
    return cases


FIXTURES = {kind: load_fixture(kind) for kind in COURSE_CALLS}
FIXTURE_CASES = [pytest.param(kind, case, id=f"{kind}-{case}")
                 for kind, cases in FIXTURES.items() for case in cases]


def test_every_fixture_file_has_a_course_call():
    on_disk = {p.stem.removeprefix("torch_") for p in DATA.glob("torch_*.npz")}
    assert on_disk == set(COURSE_CALLS), "a fixture kind without a course call, or the reverse"
    assert all(FIXTURES.values()), "an empty fixture file"


def test_fixtures_cover_what_the_course_promises():
    names = " ".join(FIXTURES["sdpa"])
    for wanted in ("bool_mask", "float_mask_with_minus_inf", "causal_n3_m7", "causal_n7_m3",
                   "scale_", "float32", "float64", "fully_masked_row_bool",
                   "fully_masked_row_float", "batch_broadcast"):
        assert wanted in names, f"tests/data/torch_sdpa.npz has no {wanted!r} case"
    float_masks = [a["attn_mask"] for a, _ in FIXTURES["sdpa"].values()
                   if "attn_mask" in a and a["attn_mask"].dtype.kind == "f"]
    assert float_masks and all(np.isneginf(m).any() for m in float_masks)
    assert any("is_causal" in kw for _, kw in FIXTURES["gradients"].values())
    assert len(FIXTURES["multihead"]) >= 4
    assert any(a["key"].shape[-3] == 1 for a, _ in FIXTURES["gqa"].values())  # multi-query
    assert any(n < m for n, m in ((kw["n"], kw["m"]) for _, kw in FIXTURES["lower_right"].values()))
    assert {kw["dtype"] for _, kw in FIXTURES["low_precision"].values()} == {"float16",
                                                                          "bfloat16"}


def test_notebook_12s_layer_is_the_recorded_case():
    """course_lib.examples holds the layer notebook 12 ports and PyTorch's answer for it, so the
    notebook runs without PyTorch; it is the fixture's case, bit for bit."""
    arrays, _ = FIXTURES["multihead"]["default_biases_float64"]
    example = multihead_layer_example()
    for name in ("x", "in_proj_weight", "in_proj_bias", "out_proj_weight", "out_proj_bias",
                 "x_batch", "key_padding_mask"):
        np.testing.assert_array_equal(example[name], arrays[name], err_msg=name)
    for name in ("output", "weights", "batch_output"):
        np.testing.assert_array_equal(example[f"torch_{name}"], arrays[name], err_msg=name)


def test_fixtures_stay_small():
    sizes = {p.name: p.stat().st_size for p in DATA.glob("torch_*.npz")}
    assert sizes and sum(sizes.values()) < 512 * 1024, sizes


# low precision: both compute in float32 and round the output once to the input's precision,
# so they agree to about one unit in the last place of that precision (2⁻¹⁰ and 2⁻⁷).
LOW_PRECISION = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "bfloat16": {"rtol": 1.6e-2,
                                                                       "atol": 1.6e-2}}


@pytest.mark.parametrize(("kind", "case"), FIXTURE_CASES)
def test_course_matches_recorded_pytorch(kind, case):
    arrays, kwargs = FIXTURES[kind][case]
    ours = COURSE_CALLS[kind](arrays, kwargs)
    assert ours, case
    tolerance = LOW_PRECISION.get(kwargs.get("dtype"))
    for name, got in ours.items():
        want = arrays[name]
        assert got.shape == want.shape and got.dtype == want.dtype, (name, got.shape, want.shape)
        np.testing.assert_allclose(got, want, err_msg=f"{case}: {name}",
                                   **(tolerance or TOLERANCE[want.dtype.name]))


def load_generator():
    spec = importlib.util.spec_from_file_location("make_torch_fixtures", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_torch
def test_fixtures_are_what_the_generator_makes():
    """Nobody edits a fixture by hand: the script, run again here, gives the stored arrays —
    the inputs (seeded) bit for bit; what torch computed bit for bit with the recorded torch
    version on the same kind of CPU, within the tolerance otherwise (another CPU's float32
    kernels round differently)."""
    built = load_generator().build(torch)
    assert set(built) == set(COURSE_CALLS)
    for kind, arrays in built.items():
        with np.load(DATA / f"torch_{kind}.npz") as stored:
            assert set(stored.files) == set(arrays), f"torch_{kind}.npz holds other cases"
            recorded = str(stored["meta/torch_version"])
            same_torch = recorded == torch.__version__
            for key, array in arrays.items():
                if key.startswith("meta/"):
                    continue
                kept = stored[key]
                assert kept.dtype == array.dtype and kept.shape == array.shape, key
                computed = key.rsplit("/", 1)[-1].startswith(("output", "grad", "weights"))
                if (same_torch and not computed) or key.endswith("/kwargs") \
                        or kept.dtype.kind in "bU":
                    np.testing.assert_array_equal(kept, array, err_msg=f"torch_{kind}.npz {key}")
                else:
                    np.testing.assert_allclose(kept, array, err_msg=f"{key} (recorded with "
                                               f"torch {recorded})", **TOLERANCE[kept.dtype.name])


# ---------------------------------------------------------------------------------------------
# Live comparisons, where PyTorch is installed

LIVE_TOLERANCE = {np.float64: {"rtol": 1e-12, "atol": 1e-13},
                  np.float32: {"rtol": 2e-5, "atol": 2e-6}}
DTYPES = pytest.mark.parametrize("dtype", [np.float64, np.float32])
SHAPES = [  # (batch, n, m, d_k, d_v)
    ((), 4, 4, 8, 8),
    ((), 3, 7, 5, 2),
    ((2,), 6, 3, 4, 5),
    ((2, 3), 5, 9, 16, 4),
    ((1, 2), 1, 1, 1, 1),
]


def make(shape, dtype, seed):
    batch, n, m, d_k, d_v = shape
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(batch + (n, d_k)).astype(dtype),
            rng.standard_normal(batch + (m, d_k)).astype(dtype),
            rng.standard_normal(batch + (m, d_v)).astype(dtype))


def torch_sdpa(query, key, value, attn_mask=None, **kwargs):
    t = [torch.from_numpy(np.ascontiguousarray(a)) for a in (query, key, value)]
    mask = None if attn_mask is None else torch.from_numpy(np.ascontiguousarray(attn_mask))
    with torch.no_grad():
        return F.scaled_dot_product_attention(*t, attn_mask=mask, **kwargs).numpy()


def assert_same(ours, theirs, dtype):
    assert ours.shape == theirs.shape
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, **LIVE_TOLERANCE[dtype])


@needs_torch
@DTYPES
@pytest.mark.parametrize("shape", SHAPES)
def test_default_scale(shape, dtype):
    q, k, v = make(shape, dtype, seed=1)
    assert_same(scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), dtype)


@needs_torch
@DTYPES
@pytest.mark.parametrize("scale", [0.05, 1.0, 3.0])
def test_explicit_scale_multiplies_the_scores(dtype, scale):
    q, k, v = make(((2,), 4, 6, 8, 3), dtype, seed=2)
    ours = scaled_dot_product_attention(q, k, v, scale=scale)
    assert_same(ours, torch_sdpa(q, k, v, scale=scale), dtype)
    # and the scale matters here: the default 1/√8 gives something else
    assert not np.allclose(ours, torch_sdpa(q, k, v), rtol=1e-3, atol=1e-3)


@needs_torch
@DTYPES
@pytest.mark.parametrize("mask_shape", [(5, 7), (1, 7), (2, 1, 5, 7), (3, 5, 7)])
def test_bool_mask_true_is_allowed(dtype, mask_shape):
    # (A 1-D (m,) mask also works in the course, but torch 2.13 rejects it for 4-D queries.)
    q, k, v = make(((2, 3), 5, 7, 4, 2), dtype, seed=3)
    rng = np.random.default_rng(4)
    mask = rng.random(mask_shape) < 0.6
    mask[..., 0] = True  # every query keeps a key (fully masked rows: tested below)
    assert_same(scaled_dot_product_attention(q, k, v, attn_mask=mask),
                torch_sdpa(q, k, v, attn_mask=mask), dtype)


@needs_torch
@DTYPES
def test_float_mask_is_added(dtype):
    q, k, v = make(((2,), 4, 6, 3, 3), dtype, seed=5)
    rng = np.random.default_rng(6)
    mask = rng.standard_normal((4, 6)).astype(dtype)
    mask[rng.random((4, 6)) < 0.3] = -np.inf
    mask[:, 1] = 0.5  # every query keeps a key
    assert_same(scaled_dot_product_attention(q, k, v, attn_mask=mask),
                torch_sdpa(q, k, v, attn_mask=mask), dtype)


@needs_torch
@DTYPES
@pytest.mark.parametrize(("n", "m"), [(5, 5), (3, 7), (7, 3), (1, 4), (4, 1)])
def test_is_causal_top_left_also_when_n_differs_from_m(dtype, n, m):
    q, k, v = make(((2,), n, m, 4, 3), dtype, seed=7 + n * m)
    ours = scaled_dot_product_attention(q, k, v, is_causal=True)
    assert_same(ours, torch_sdpa(q, k, v, is_causal=True), dtype)
    assert_same(scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3),
                torch_sdpa(q, k, v, is_causal=True, scale=0.3), dtype)


@needs_torch
@DTYPES
def test_batch_axes_broadcast_like_torch(dtype):
    rng = np.random.default_rng(8)
    q = rng.standard_normal((2, 1, 5, 8)).astype(dtype)
    k = rng.standard_normal((3, 7, 8)).astype(dtype)
    v = rng.standard_normal((3, 7, 2)).astype(dtype)
    assert_same(scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), dtype)


@needs_torch
@DTYPES
@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fully_masked_row(dtype, kind):
    # What PyTorch's CPU kernel returns for a query with every key masked out has changed over
    # versions: some older releases gave NaN; 2.13.0+cpu, checked on the development machine,
    # gives a row of zeros for bool and float masks, float32 and float64. The course promises
    # zeros; compare only when this torch agrees, and say why not otherwise.
    q, k, v = make(((2,), 4, 5, 3, 2), dtype, seed=9)
    allowed = np.ones((4, 5), dtype=bool)
    allowed[2] = False
    mask = allowed if kind == "bool" else np.where(allowed, 0.0, -np.inf).astype(dtype)
    theirs = torch_sdpa(q, k, v, attn_mask=mask)
    ours = scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert np.all(ours[:, 2] == 0.0)
    if np.isnan(theirs[:, 2]).any():
        pytest.skip(f"torch {torch.__version__} returns NaN for a fully masked row (the course "
                    "returns zeros, like newer PyTorch CPU kernels)")
    assert np.all(theirs[:, 2] == 0.0)
    assert_same(ours, theirs, dtype)


@needs_torch
def test_what_notebook_11_says_of_a_fully_masked_row():
    """SDPA gives zeros; nn.MultiheadAttention, computing its weights (need_weights=True, the
    default), NaN; a finfo.min mask as Hugging Face's eager attention adds it, equal weights."""
    q, k, v = (torch.from_numpy(a) for a in make(((2,), 3, 4, 4, 4), np.float32, seed=14))
    padded = torch.tensor([[False] * 4, [False, False, True, True]])  # sequence 0: no real key
    layer = torch.nn.MultiheadAttention(4, 2, batch_first=True)
    with torch.no_grad():
        sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=padded[:, None, :])
        mha, _ = layer(q, k, v, key_padding_mask=~padded)  # PyTorch: True = blocked
        floor = torch.where(padded[:, None, :], 0.0, torch.finfo(torch.float32).min)
        eager = torch.softmax(q @ k.transpose(-1, -2) / 2 + floor, dim=-1)
    assert torch.all(sdpa[0] == 0) and torch.isnan(mha[0]).all() and not torch.isnan(mha[1]).any()
    assert torch.allclose(eager[0], torch.full((3, 4), 0.25))


@needs_torch
@DTYPES
def test_weights_match_torch_softmax(dtype):
    q, k, v = make(((3,), 4, 6, 5, 2), dtype, seed=10)
    rng = np.random.default_rng(11)
    mask = rng.random((4, 6)) < 0.7
    mask[:, 3] = True
    _, weights = scaled_dot_product_attention(q, k, v, attn_mask=mask, return_weights=True)
    tq, tk = torch.from_numpy(q), torch.from_numpy(k)
    scores = tq @ tk.transpose(-1, -2) / math.sqrt(5)
    scores = scores.masked_fill(~torch.from_numpy(mask), float("-inf"))
    assert_same(weights, torch.softmax(scores, dim=-1).numpy(), dtype)


@needs_torch
def test_float16_close_to_torch():
    # Both compute half-precision attention in a wider type on the CPU and round at the end;
    # the results may differ by a couple of float16 steps (2⁻¹⁰ ≈ 1e-3 near 1).
    q, k, v = make(((2,), 5, 7, 8, 3), np.float16, seed=12)
    ours = scaled_dot_product_attention(q, k, v, is_causal=True)
    theirs = torch_sdpa(q, k, v, is_causal=True)
    assert ours.dtype == theirs.dtype == np.float16
    np.testing.assert_allclose(ours.astype(np.float64), theirs.astype(np.float64),
                               rtol=5e-3, atol=5e-3)


@needs_torch
def test_extreme_scores_and_wide_keys():
    rng = np.random.default_rng(13)
    q = rng.standard_normal((3, 4096))
    k = rng.standard_normal((5, 4096))
    v = rng.standard_normal((5, 2))
    assert_same(scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), np.float64)
    big_q = np.array([[100.0], [-100.0]])
    big_k = np.array([[100.0], [99.98], [-100.0]])
    big_v = np.array([[1.0], [2.0], [3.0]])
    assert_same(scaled_dot_product_attention(big_q, big_k, big_v, scale=1.0),
                torch_sdpa(big_q, big_k, big_v, scale=1.0), np.float64)
