"""Record PyTorch's answers for the course's parity tests: ``python tools/make_torch_fixtures.py``.

Needs PyTorch (``pip install torch``; it is never part of the lock). Draws seeded inputs, asks
PyTorch for its outputs and writes one compressed ``tests/data/torch_<kind>.npz`` per kind of
case (``python tools/make_torch_fixtures.py multihead`` writes that kind's file only).
``tests/test_torch_parity.py`` compares ``course_lib`` with these files in every run, without
PyTorch; where PyTorch is installed it also calls :func:`build` again and checks that the files
hold exactly what this script makes (so a hand-edited fixture is caught).

File layout: ``"<case>/<name>"`` arrays (inputs such as ``query``, outputs such as ``output``
or ``grad_query``), ``"<case>/kwargs"`` (a JSON string: the keyword arguments, the same for
PyTorch and the course), and ``"meta/torch_version"``, ``"meta/numpy_version"``.

Adding a kind of case (grouped-query attention, bottom-right causal alignment, bfloat16
inputs, ...): write a ``<kind>_cases()`` generator yielding ``(name, arrays, kwargs)`` with a
function that computes PyTorch's arrays, add it to :data:`KINDS`, and add the matching
course call to ``COURSE_CALLS`` in ``tests/test_torch_parity.py``. A dtype that ``.npz``
cannot hold (bfloat16) goes through :func:`storable` (kept as its uint16 bits).
"""

import json
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
DTYPES = ("float32", "float64")


def storable(tensor):
    """A NumPy array ``.npz`` can keep: bfloat16 as its raw uint16 bits, the rest as is."""
    import torch

    if tensor.dtype == torch.bfloat16:
        return tensor.detach().view(torch.int16).numpy().view(np.uint16)
    return tensor.detach().numpy()


def _normal(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def _qkv(seed, batch, n, m, d_k, d_v, dtype):
    rng = np.random.default_rng(seed)
    return {"query": _normal(rng, (*batch, n, d_k), dtype),
            "key": _normal(rng, (*batch, m, d_k), dtype),
            "value": _normal(rng, (*batch, m, d_v), dtype)}


# --- scaled_dot_product_attention: forward --------------------------------------------------

def sdpa_cases():
    """(name, inputs, kwargs) for F.scaled_dot_product_attention, float32 and float64."""
    for dtype in DTYPES:
        shapes = {"plain": ((), 4, 4, 8, 8), "n3_m7": ((), 3, 7, 5, 2),
                  "batch2": ((2,), 6, 3, 4, 5), "batch2x3": ((2, 3), 5, 9, 16, 4),
                  "ones": ((1, 2), 1, 1, 1, 1)}
        for label, shape in shapes.items():
            yield f"default_scale_{label}_{dtype}", _qkv(1, *shape, dtype), {}
        for scale in (0.05, 3.0):
            yield f"scale_{scale}_{dtype}", _qkv(2, (2,), 4, 6, 8, 3, dtype), {"scale": scale}
        for mask_shape in ((5, 7), (1, 7), (2, 1, 5, 7), (3, 5, 7)):
            arrays = _qkv(3, (2, 3), 5, 7, 4, 2, dtype)
            mask = np.random.default_rng(4).random(mask_shape) < 0.6
            mask[..., 0] = True  # every query keeps a key (fully masked rows: below)
            label = "x".join(map(str, mask_shape))
            yield f"bool_mask_{label}_{dtype}", {**arrays, "attn_mask": mask}, {}
        arrays = _qkv(5, (2,), 4, 6, 3, 3, dtype)
        rng = np.random.default_rng(6)
        mask = rng.standard_normal((4, 6)).astype(dtype)
        mask[rng.random((4, 6)) < 0.3] = -np.inf  # −∞ blocks, finite values are added
        mask[:, 1] = 0.5
        yield f"float_mask_with_minus_inf_{dtype}", {**arrays, "attn_mask": mask}, {}
        for n, m in ((5, 5), (3, 7), (7, 3), (1, 4), (4, 1)):
            arrays = _qkv(7 + n * m, (2,), n, m, 4, 3, dtype)
            yield f"causal_n{n}_m{m}_{dtype}", arrays, {"is_causal": True}
        yield f"causal_scaled_n3_m7_{dtype}", _qkv(8, (2,), 3, 7, 4, 3, dtype), {
            "is_causal": True, "scale": 0.3}
        rng = np.random.default_rng(9)  # q (2, 1, 5, 8) against k, v (3, 7, ·): batch (2, 3)
        yield f"batch_broadcast_{dtype}", {"query": _normal(rng, (2, 1, 5, 8), dtype),
                                            "key": _normal(rng, (3, 7, 8), dtype),
                                            "value": _normal(rng, (3, 7, 2), dtype)}, {}
        allowed = np.ones((4, 5), dtype=bool)
        allowed[2] = False  # query 2 may attend to nothing
        for kind, mask in (("bool", allowed),
                           ("float", np.where(allowed, 0.0, -np.inf).astype(dtype))):
            arrays = _qkv(10, (2,), 4, 5, 3, 2, dtype)
            yield f"fully_masked_row_{kind}_{dtype}", {**arrays, "attn_mask": mask}, {}


def sdpa_outputs(torch, arrays, kwargs):
    t = {k: torch.from_numpy(a) for k, a in arrays.items()}
    with torch.no_grad():
        return {"output": storable(torch.nn.functional.scaled_dot_product_attention(
            t["query"], t["key"], t["value"], attn_mask=t.get("attn_mask"), **kwargs))}


# --- autograd gradients -----------------------------------------------------------------------

def gradient_cases():
    """Cases for ∂L/∂Q, ∂L/∂K, ∂L/∂V with L = Σ G ⊙ output (G = grad_output), float64."""
    for name, arrays, kwargs in sdpa_cases():
        if name.endswith("float64"):
            rng = np.random.default_rng(len(name))
            batch = np.broadcast_shapes(arrays["query"].shape[:-2], arrays["key"].shape[:-2])
            n, d_v = arrays["query"].shape[-2], arrays["value"].shape[-1]
            yield name, {**arrays, "grad_output": rng.standard_normal((*batch, n, d_v))}, kwargs


def gradient_outputs(torch, arrays, kwargs):
    q, k, v = (torch.tensor(arrays[n], requires_grad=True) for n in ("query", "key", "value"))
    mask = arrays.get("attn_mask")
    out = torch.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=None if mask is None else torch.from_numpy(mask), **kwargs)
    out.backward(torch.from_numpy(arrays["grad_output"]))
    return {"grad_query": storable(q.grad), "grad_key": storable(k.grad),
            "grad_value": storable(v.grad)}


# --- nn.MultiheadAttention with given weights --------------------------------------------------

def multihead_cases():
    """Cases for nn.MultiheadAttention(bias=False) holding W_Q, W_K, W_V, W_O (course layout:
    Q = X W_Q, so PyTorch gets the transposes)."""
    for dtype in DTYPES:
        for d_kv, mask in ((8, None), (5, None), (8, "bool"), (8, "padding")):
            rng = np.random.default_rng(21 + d_kv)
            d_model, heads, n, m = 8, 2, 4, 6
            arrays = {"query_input": _normal(rng, (3, n, d_model), dtype),
                      "key_input": _normal(rng, (3, m, d_kv), dtype)}
            arrays["value_input"] = arrays["key_input"]
            for w, rows in (("w_q", d_model), ("w_k", d_kv), ("w_v", d_kv), ("w_o", d_model)):
                arrays[w] = _normal(rng, (rows, d_model), dtype) / np.sqrt(rows).astype(dtype)
            if mask == "bool":
                arrays["attn_mask"] = rng.random((n, m)) < 0.7
                arrays["attn_mask"][:, 0] = True
            elif mask == "padding":  # (batch, 1, m): sequence b has lengths[b] real keys
                arrays["attn_mask"] = (np.arange(m) < np.array([2, 6, 4])[:, None])[:, None]
            yield f"d_kv{d_kv}_{mask or 'no_mask'}_{dtype}", arrays, {"num_heads": heads}
    # the layer with its default biases that notebook 12 ports (course_lib.examples)
    from course_lib.examples import multihead_layer_example

    layer = multihead_layer_example()
    yield "default_biases_float64", {k: v for k, v in layer.items()
                                     if not k.startswith("torch_")}, {"num_heads": 2}


def multihead_outputs(torch, arrays, kwargs):
    t = {k: torch.from_numpy(np.ascontiguousarray(a)) for k, a in arrays.items()}
    if "in_proj_weight" in t:  # PyTorch's own layout, biases included: self-attention on x
        layer = torch.nn.MultiheadAttention(t["x"].shape[-1], kwargs["num_heads"],
                                            dtype=t["x"].dtype)
        with torch.no_grad():
            for name in ("in_proj_weight", "in_proj_bias"):
                getattr(layer, name).copy_(t[name])
            layer.out_proj.weight.copy_(t["out_proj_weight"])
            layer.out_proj.bias.copy_(t["out_proj_bias"])
            out, weights = layer(t["x"], t["x"], t["x"], average_attn_weights=False)
            xb = t["x_batch"]  # (n, batch, d_model), PyTorch's default layout
            batch_out, _ = layer(xb, xb, xb, key_padding_mask=t["key_padding_mask"])
        return {"output": storable(out), "weights": storable(weights),
                "batch_output": storable(batch_out)}
    d_model, d_kv = t["w_q"].shape[0], t["w_k"].shape[0]
    layer = torch.nn.MultiheadAttention(d_model, kwargs["num_heads"], bias=False, kdim=d_kv,
                                        vdim=d_kv, batch_first=True, dtype=t["w_q"].dtype)
    with torch.no_grad():
        if layer._qkv_same_embed_dim:
            layer.in_proj_weight.copy_(torch.cat([t["w_q"].T, t["w_k"].T, t["w_v"].T]))
        else:
            layer.q_proj_weight.copy_(t["w_q"].T)
            layer.k_proj_weight.copy_(t["w_k"].T)
            layer.v_proj_weight.copy_(t["w_v"].T)
        layer.out_proj.weight.copy_(t["w_o"].T)
        masks = {}
        if "attn_mask" in t and t["attn_mask"].dim() == 3:  # PyTorch: True = BLOCKED
            masks["key_padding_mask"] = ~t["attn_mask"][:, 0]
        elif "attn_mask" in t:
            masks["attn_mask"] = ~t["attn_mask"]
        out, weights = layer(t["query_input"], t["key_input"], t["value_input"],
                             need_weights=True, average_attn_weights=False, **masks)
    return {"output": storable(out), "weights": storable(weights)}


# --- grouped-query and multi-query attention (enable_gqa=True) ------------------------------

def gqa_cases():
    """Query heads on axis −3 sharing key/value heads: grouped (8 over 2), multi-query (over
    1), with a batch axis, causal, and a boolean mask."""
    for dtype in DTYPES:
        for label, (batch, hq, hkv, n, m) in {"grouped_8_over_2": ((2,), 8, 2, 4, 6),
                                             "multi_query_4_over_1": ((), 4, 1, 3, 5),
                                             "grouped_6_over_3_n_gt_m": ((2,), 6, 3, 7, 4)}.items():
            rng = np.random.default_rng(31 + hq)
            arrays = {"query": _normal(rng, (*batch, hq, n, 8), dtype),
                      "key": _normal(rng, (*batch, hkv, m, 8), dtype),
                      "value": _normal(rng, (*batch, hkv, m, 3), dtype)}
            yield f"{label}_{dtype}", arrays, {"enable_gqa": True}
            yield f"{label}_causal_{dtype}", arrays, {"enable_gqa": True, "is_causal": True}
        rng = np.random.default_rng(37)
        arrays = {"query": _normal(rng, (4, 5, 4), dtype), "key": _normal(rng, (2, 6, 4), dtype),
                  "value": _normal(rng, (2, 6, 2), dtype),
                  "attn_mask": rng.random((5, 6)) < 0.7}
        arrays["attn_mask"][:, 0] = True
        yield f"grouped_4_over_2_bool_mask_{dtype}", arrays, {"enable_gqa": True}


# --- bottom-right causal alignment (decoding with a cache) ---------------------------------------

def lower_right_cases():
    """causal_lower_right(n, m): the n queries are the last n of the m positions; kwargs carry
    n and m (the course builds ``causal_mask(n, m, align="bottom-right")``)."""
    for dtype in DTYPES:
        for n, m in ((1, 5), (3, 7), (4, 4), (2, 9)):
            arrays = _qkv(41 + n * m, (2,), n, m, 4, 3, dtype)
            yield f"lower_right_n{n}_m{m}_{dtype}", arrays, {"n": n, "m": m}


def lower_right_outputs(torch, arrays, kwargs):
    from torch.nn.attention.bias import causal_lower_right

    t = {k: torch.from_numpy(a) for k, a in arrays.items()}
    with torch.no_grad():
        out = torch.nn.functional.scaled_dot_product_attention(
            t["query"], t["key"], t["value"],
            attn_mask=causal_lower_right(kwargs["n"], kwargs["m"]))
    return {"output": storable(out)}


# --- low precision: float16 and bfloat16 inputs ---------------------------------------------------

def low_precision_cases():
    """float16 and bfloat16 inputs: stored in float32, and both PyTorch and the course round
    them to the dtype the kwargs name; PyTorch's output, in that dtype, is stored as float32
    (every float16 and bfloat16 value is exact in float32)."""
    for dtype in ("float16", "bfloat16"):
        for label, kwargs in (("plain", {}), ("causal", {"is_causal": True}),
                              ("scaled", {"scale": 0.5})):
            arrays = _qkv(51, (2,), 5, 7, 8, 4, "float32")
            yield f"{label}_{dtype}", arrays, {"dtype": dtype, **kwargs}


def low_precision_outputs(torch, arrays, kwargs):
    kwargs = dict(kwargs)
    dtype = getattr(torch, kwargs.pop("dtype"))
    t = {k: torch.from_numpy(a).to(dtype) for k, a in arrays.items()}
    with torch.no_grad():
        out = torch.nn.functional.scaled_dot_product_attention(t["query"], t["key"], t["value"],
                                                                **kwargs)
    return {"output_as_float32": out.float().numpy()}


# kind → (cases, PyTorch's outputs)
KINDS = {
    "sdpa": (sdpa_cases, sdpa_outputs),
    "gradients": (gradient_cases, gradient_outputs),
    "multihead": (multihead_cases, multihead_outputs),
    "gqa": (gqa_cases, sdpa_outputs),
    "lower_right": (lower_right_cases, lower_right_outputs),
    "low_precision": (low_precision_cases, low_precision_outputs),
}


def build(torch, kinds=KINDS):
    """{kind: {"<case>/<name>": array}}: every case's inputs, kwargs and PyTorch's outputs."""
    torch.manual_seed(0)  # nothing here is random in torch; kept so a new kind cannot drift
    files = {}
    for kind, (cases, outputs) in kinds.items():
        arrays = {"meta/torch_version": np.array(torch.__version__),
                  "meta/numpy_version": np.array(np.__version__)}
        for name, inputs, kwargs in cases():
            assert f"{name}/kwargs" not in arrays, f"two {kind} cases are called {name}"
            arrays[f"{name}/kwargs"] = np.array(json.dumps(kwargs, sort_keys=True))
            arrays.update({f"{name}/{k}": a for k, a in inputs.items()})
            arrays.update({f"{name}/{k}": a for k, a in outputs(torch, inputs, kwargs).items()})
        files[kind] = arrays
    return files


def main():
    try:
        import torch
    except ImportError:
        return "make_torch_fixtures: PyTorch is not installed here (pip install torch)"
    DATA.mkdir(parents=True, exist_ok=True)
    chosen = sys.argv[1:] or list(KINDS)  # e.g. `make_torch_fixtures.py multihead`: one file
    unknown = set(chosen) - set(KINDS)
    if unknown:
        return f"make_torch_fixtures: no kind {sorted(unknown)}; the kinds are {list(KINDS)}"
    for kind, arrays in build(torch, {k: KINDS[k] for k in chosen}).items():
        path = DATA / f"torch_{kind}.npz"
        np.savez_compressed(path, **arrays)
        cases = sum(k.endswith("/kwargs") for k in arrays)
        print(f"{path.relative_to(DATA.parents[1])}: {cases} cases, "
              f"{path.stat().st_size / 1024:.0f} KiB, torch {torch.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
