"""Notebook 12: a head's divisor by hand, every head's weights, multi-head attention."""

import math
import re

import numpy as np

from .. import softmax
from ._values import frozen_array
from .engine import CodeExercise
from .feedback import Slip, slip_rows
from .hand import HandExercise

_HEAD_DIVISOR_SLIPS = [
    ("√d_model", "{got} is √{d_model}, the full width: a head has d_k = d_model / h.",
     (lambda d_model, h: math.sqrt(d_model), lambda d_model, h: round(math.sqrt(d_model)))),
    ("d_model", "{got} is d_model: cut it into {h} heads, then take the root.",
     lambda d_model, h: float(d_model)),
    ("√h", "{got} is √{h}: take the root of a head's width, d_model / h.",
     lambda d_model, h: math.sqrt(h)),
    ("h", "{got} is the number of heads: each head divides by √d_k.", lambda d_model, h: float(h)),
    ("the paper's 8 heads", "{got} is √({d_model} / 8): this model has h = {h} heads.",
     lambda d_model, h: math.sqrt(d_model / 8)),
    ("halved instead of the root", "{got} is d_k / 2: the divisor is the square ROOT "
     "of d_k.", lambda d_model, h: d_model / h / 2),
    ("a root before the division", "{got} takes a root before dividing {d_model} by {h}.", (
         lambda d_model, h: math.sqrt(d_model) / h,
         lambda d_model, h: d_model / math.sqrt(h))),
    ("multiplied by h", "{got} comes from {d_model} × {h}: the heads CUT the width.",
     (lambda d_model, h: float(d_model * h), lambda d_model, h: math.sqrt(d_model * h))),
]


HEAD_DIVISOR = HandExercise(
    "head divisor by hand", "the divisor of each head's scores for d_model = {d_model} and "
    "h = {h}", lambda d_model, h: math.sqrt(d_model / h),
    {"d_model": 1536, "h": 12}, _HEAD_DIVISOR_SLIPS, tolerance=0.05,
    twins=[
        ("d_model over the divisor", "{got} is d_model ÷ the divisor: the divisor is √d_k itself.",
         lambda d_model, h: d_model / math.sqrt(d_model / h))])


def _case(seed, n, d_model, h):
    rng = np.random.default_rng(seed)
    weights = [frozen_array((rng.standard_normal((d_model, d_model)) / math.sqrt(d_model))
                            .round(3)) for _ in range(4)]
    return frozen_array(rng.standard_normal((n, d_model)).round(2)), weights, h


# (n, d_model, h): n ≠ d_model and d_k ≠ h in most; n = d_model in the last
_CASES = [_case(seed, *shape) for seed, shape in enumerate(
    [(3, 4, 2), (4, 6, 3), (2, 8, 4), (5, 6, 2), (3, 6, 1), (4, 8, 2), (6, 6, 3)])]


def _block(t, d_k, h):
    return slice(t * d_k, (t + 1) * d_k)


def _root(width, d_model, h):
    return 1 / math.sqrt(d_model // h)


def _weights(x, w_q, w_k, h, scale=_root, axis=-1, cols=_block, swap=False, soft=True,
             queries=None, keys=None):
    """Every head's weights; a keyword makes a slip."""
    x = np.asarray(x)
    q, k = x @ np.asarray(w_q if queries is None else queries), x @ np.asarray(
        w_k if keys is None else keys)
    d_model = q.shape[1]
    heads = []
    for t in range(h):
        c = cols(t, d_model // h, h)
        s = (k[:, c] @ q[:, c].T if swap else q[:, c] @ k[:, c].T) * scale(
            q[:, c].shape[1], d_model, h)
        heads.append(softmax(s, axis=axis) if soft else s)
    return heads


def _head_weights(x, w_q, w_k, h, **slip):
    return np.stack(_weights(x, w_q, w_k, h, **slip))


def _multi_head(x, w_q, w_k, w_v, w_o, h, values=None, merge=None, **slip):
    d_k, cols = np.shape(w_q)[1] // h, slip.get("cols", _block)  # V is cut like Q and K
    v = np.asarray(x) @ np.asarray(w_v if values is None else values)
    whole_v = slip.pop("whole_v", False)
    heads = [a @ (v if whole_v else v[:, cols(t, d_k, h)])
             for t, a in enumerate(_weights(x, w_q, w_k, h, **slip))]
    return (merge or (lambda hs, w_o: np.concatenate(hs, axis=1) @ w_o))(heads, np.asarray(w_o))


# name, hint, the slip's keywords (one dict per form)
_SHARED = [
    ("the full width in the scale", "each head divides by √d_k of its own slice, d_k = "
     "d_model / h.", [{"scale": lambda w, D, h: 1 / math.sqrt(D)},
                      {"scale": lambda w, D, h: 1 / D}]),
    ("no scale", "divide each head's scores by √d_k, d_k = d_model / h.",
     [{"scale": lambda w, D, h: 1.0}]),
    ("divided by d_k", "the scale is 1/√d_k: the square root of the head's width.",
     [{"scale": lambda w, D, h: h / D}]),
    ("** 1/2", "`d_k ** 1/2` is (d_k ** 1) / 2: write d_k ** 0.5.",
     [{"scale": lambda w, D, h: 2 * h / D}, {"scale": lambda w, D, h: h / D / 2}]),
    ("interleaved columns", "head t got columns t, t + h, …: it owns the d_k NEIGHBOURING columns "
     "from t·d_k.", [{"cols": lambda t, d, h: slice(t, None, h)}]),
    *((name, hint, [{"cols": lambda t, d, h, e=e: slice(t * d, (t + 1) * d + e), "scale": s}
                    for s in (_root, lambda w, D, h: 1 / math.sqrt(w))]) for name, e, hint in (
        ("one column too many", 1, "a slice stops BEFORE its end: [t*d_k:(t+1)*d_k] needs no + 1."),
        ("one column short", -1, "[t*d_k:(t+1)*d_k] already stops before column (t+1)·d_k: no − "
         "1."))),
    ("head t from column t", "head t starts at column t·d_k: [t*d_k:(t+1)*d_k].",
     [{"cols": lambda t, d, h: slice(t, t + d)}]),
    ("d_k taken as h", "each head is d_k = d_model / h columns wide, not h.",
     [{"cols": lambda t, d, h: slice(t * h, (t + 1) * h), "scale": lambda w, D, h: h ** -0.5}]),
    ("the wrong weight matrix", "the queries are X W_Q and the keys X W_K, each with its own "
     "matrix.", [{"keys": "w_q"}, {"queries": "w_k"}]),
    ("a weight matrix transposed", "the matrices act as given, x @ w_q.",
     [{"queries": "w_q.T"}, {"keys": "w_k.T"}, {"queries": "w_q.T", "keys": "w_k.T"}]),
    ("K Qᵀ for the scores", "row i of the scores is query i against every key: Q_t K_tᵀ.",
     [{"swap": True}]),
    ("softmax down the columns", "each query's ROW sums to 1: axis=-1.", [{"axis": 0}]),
    ("head 0 for every head", "head t's columns are t·d_k … (t + 1)·d_k − 1: the slice moves.",
     [{"cols": lambda t, d, h: slice(0, d)}]),
    ("no projections", "project x first: x @ w_q and x @ w_k.",
     [{"queries": "eye", "keys": "eye"}]),
    ("no softmax", "those are the scaled scores: take each row's softmax.", [{"soft": False}]),
]


def _bind(run, form):
    """``run`` with the keywords of ``form`` (a matrix named by text)."""
    def gives(x, *args):
        mats = {"w_q": args[0], "w_k": args[1], "w_q.T": np.asarray(args[0]).T,
                "w_k.T": np.asarray(args[1]).T, "eye": np.eye(np.shape(x)[1])}
        return run(x, *args, **{k: mats[v] if isinstance(v, str) else v for k, v in form.items()})
    return gives


def _shared(run, skip=()):
    return slip_rows([r for r in _SHARED if r[0] not in skip], lambda form: _bind(run, form))


_QUANTITIES = {"d_k": lambda x, w, *r: np.shape(w)[1] // r[-1], "h": lambda x, *r: r[-1]}


def _show(args):
    return (f"x of shape {np.shape(args[0])}, weight matrices of shape {np.shape(args[1])}, "
            f"num_heads={args[-1]}")


def _reshaped(x, w_q, w_k, h):
    """A reshape to (h, n, d_k), no axis moved: rows mixed."""
    q, k = (np.asarray(x) @ np.asarray(w) for w in (w_q, w_k))
    n, d_model = q.shape
    q, k = q.reshape(h, n, d_model // h), k.reshape(h, n, d_model // h)
    return softmax(q @ np.swapaxes(k, 1, 2) / math.sqrt(d_model // h))


_MIXED = "it mixes the rows: reshape to (n, h, d_k), then move the head axis first."

# one attention over all the columns, scaled by 1/√d_k or by 1/√d_model
_WHOLE = (lambda x, a, b, h: _weights(x, a, b, 1, scale=lambda w, D, _: (h / D) ** 0.5)[0],
          lambda x, a, b, h: _weights(x, a, b, 1)[0])

_HEAD_WEIGHTS_SLIPS = [
    *_shared(_head_weights),
    ("every head on all the columns", "each head uses its own d_k columns of Q and K.", tuple(
         lambda x, a, b, h, f=f: np.stack([f(x, a, b, h)] * h) for f in _WHOLE)),
    ("head axis second", "the head axis comes first, (h, n, n): np.stack(heads).",
     lambda x, a, b, h: np.stack(_weights(x, a, b, h), axis=1)),
    ("reshaped to (h, n, d_k)", _MIXED, _reshaped)]


HEAD_WEIGHTS = CodeExercise(
    "head_weights", "head_weights(x, w_q, w_k, num_heads)",
    [(x, w[0], w[1], h) for x, w, h in _CASES], _head_weights, _HEAD_WEIGHTS_SLIPS,
    quantities=_QUANTITIES, show_args=_show)


def _mismatch(o):
    """(the left factor's inner size, the right one's rows) from a shape error."""
    said = str(o.error)
    found = re.search(r"size (\d+) is different from (\d+)", said)
    if found:
        return int(found.group(2)), int(found.group(1))
    found = re.search(r"(\d+) \(dim 1\) != (\d+) \(dim 0\)", said)
    return (int(found.group(1)), int(found.group(2))) if found else None


def _widths(o):
    x, w_q, *_, h = o.case.args
    return np.shape(w_q)[1], np.shape(w_q)[1] // h, h  # d_model, d_k, h


def _merged(merge, **how):
    return lambda *case: _multi_head(*case, merge=merge, **how)


_MULTI_HEAD_SLIPS = [
    *_shared(_multi_head, skip=("one column short", "one column too many")),
    ("no W_O", "those are the heads side by side: multiply them by W_O.",
     _merged(lambda hs, w_o: np.concatenate(hs, axis=1))),
    ("heads summed", "each head keeps its own d_k columns: np.concatenate(heads, axis=1) @ "
     "w_o.", _merged(lambda hs, w: sum(hs) @ w[:hs[0].shape[1]])),
    ("heads in reverse order", "head 0's output fills the first d_k columns, then head 1's: "
     "concatenate in order.", _merged(lambda hs, w: np.concatenate(hs[::-1], 1) @ w)),
    ("every head on all of V, averaged", "each head blends its own d_k columns of V; the heads go "
     "side by side.", _merged(lambda hs, w: sum(hs) / len(hs) @ w, whole_v=True)),
    ("W_O transposed", "concat @ w_o, with w_o as given.",
     lambda x, a, b, c, o, h: _multi_head(x, a, b, c, np.asarray(o).T, h)),
    ("W_O on the left", "W_O acts on the right: concat @ w_o.",
     _merged(lambda hs, w_o: w_o @ np.concatenate(hs, axis=1))),
    ("V from the wrong matrix", "V = X W_V, with its own matrix.", tuple(
        lambda x, a, b, c, o, h, i=i: _multi_head(x, a, b, c, o, h, values=(
            a, b, np.eye(np.shape(a)[0]))[i]) for i in range(3))),
    ("one head on the full width", "cut the columns into num_heads slices, one attention "
     "each.", tuple(
         lambda x, a, b, c, o, h, k=k: _multi_head(
             x, a, b, c, o, 1, scale=lambda w, D, _: (k(h) / D) ** 0.5)
         for k in (lambda h: 1, lambda h: h))),
    ("heads merged by a reshape", "a reshape of (h, n, d_k) to (n, d_model) mixes rows: "
     "concatenate.", _merged(lambda hs, w_o: np.stack(hs).reshape(len(hs[0]), -1) @ w_o)),
    Slip("heads not laid side by side", "np.concatenate(heads, axis=1) before W_O: a sum keeps d_k "
         "columns.", when=lambda o: _mismatch(o) == _widths(o)[1::-1],
         example=_merged(lambda hs, w_o: sum(hs) @ w_o)),
    Slip("the whole V for each head", "each head weighs its OWN d_k columns of V, "
         "v[:, t*d_k:(t+1)*d_k].", when=lambda o: _widths(o)[2] > 1 and _mismatch(o) == (
             _widths(o)[2] * _widths(o)[0], _widths(o)[0]),
         example=_merged(None, whole_v=True)),
    ("reshaped to (h, n, d_k)", _MIXED, lambda x, a, b, c, o, h: np.concatenate(list(
        _reshaped(x, a, b, h) @ (np.asarray(x) @ c).reshape(h, len(x), -1)), 1) @ o),
    ("stopped after the first head", "a `return` in the loop, or no loop over the heads?",
     _merged(lambda hs, w: hs[0] @ w[:len(hs[0][0])]))]


MULTI_HEAD = CodeExercise(
    "multi_head", "multi_head(x, w_q, w_k, w_v, w_o, num_heads)",
    [(x, *w, h) for x, w, h in _CASES], _multi_head, _MULTI_HEAD_SLIPS, quantities=_QUANTITIES,
    show_args=_show)

EXERCISES = [HEAD_DIVISOR, HEAD_WEIGHTS, MULTI_HEAD]
