"""Notebook 11: a masked weight by hand, masked_softmax of a row, a padded batch's mask."""

import math

import numpy as np

from .. import softmax as _softmax
from .engine import CodeExercise
from .feedback import Slip
from .feedback import no_prediction as _no
from .hand import HandExercise


def _weight(p, big):
    return p / (p + 1)  # e^(ln p) / (e^(ln p) + e⁰); the blocked key adds 0


_MASKED_WEIGHT_SLIPS = [
    ("the blocked key counted", "{got} keeps e^{big} of the blocked key in the total: it "
     "adds e^(−∞) = 0.", lambda p, big: p / (p + 1 + math.exp(big))),
    ("blocked score set to 0", "{got} gives the blocked key the score 0, and e⁰ = 1 counts: "
     "blocked is −∞.", lambda p, big: p / (p + 2)),
    ("the blocked score added as it is", "{got} adds the blocked score {big} to the total: add e^s "
     "of the ALLOWED keys.", lambda p, big: p / (p + 1 + big)),
    ("key 1 given no weight", "{got} gives key 1 nothing, as if score 0 meant weight 0 (or the "
     "scores without e^s): e⁰ = 1 counts.", lambda p, big: 1.0),
    ("key 1's weight", "{got} is key 1's weight: the question asks for key 0's.",
     lambda p, big: 1 / (p + 1)),
    ("ln 3 read as 3", "{got} uses e^{p}: e^(ln {p}) = {p}, as ln undoes eˣ.",
     lambda p, big: math.exp(p) / (math.exp(p) + 1)),
    ("e^(ln 3) read as ln 3", "{got} uses ln {p} for e^(ln {p}) = {p}.",
     lambda p, big: math.log(p) / (math.log(p) + 1)),
    ("no exponential", "{got} divides the scores themselves: the softmax divides e^s.",
     lambda p, big: math.log(p) / (math.log(p) + big)),
    ("no division", "{got} is e^(ln {p}) alone: divide by the allowed keys' total.",
     lambda p, big: float(p)),
    ("the mask read the other way round", "{got} would mean key 0 is blocked: only key 2 is.",
     lambda p, big: 0.0),
]


MASKED_WEIGHT = HandExercise(
    "masked weight by hand", "a₀ for the scores (ln {p}, 0, {big}) with key 2 blocked",
    _weight, {"p": 3, "big": 5}, _MASKED_WEIGHT_SLIPS, tolerance=0.005,
    twins=[("an even split", "{got} splits evenly: the blocked key gets 0, the others follow "
            "e^s.", (lambda p, big: 1 / 3, lambda p, big: 1 / 2))])


def _kept(s, a):
    return [x for x, ok in zip(s, a, strict=True) if ok]  # the allowed scores


def _exps(s, a, every=False):
    """e^(s − the largest allowed score) with math.exp, on the allowed keys (or ``every``)."""
    top = max(_kept(s, a)) if any(a) else _no()
    return [math.exp(x - top) if ok or every else 0.0 for x, ok in zip(s, a, strict=True)]


def _masked_softmax(scores, allowed):
    if not any(allowed):
        return [0.0] * len(scores)
    exps = _exps(scores, allowed)
    return [e / sum(exps) for e in exps]


def _max_of_all(guard, empty_zeros=False):
    """Shifted by the max of ALL scores: 0/0 (raised, zeros or NaN) where no allowed eˢ
    survives (and in a blocked row, unless ``empty_zeros``)."""
    def slip(s, a):
        s, a = np.asarray(s, float), np.asarray(a, bool)
        e = np.where(a, np.exp(s - s.max()), 0.0)
        if e.sum() > 0 or (empty_zeros and not a.any()):
            return e / e.sum() if e.sum() > 0 else e
        if guard == "raise":
            raise ZeroDivisionError("float division by zero")
        return np.zeros_like(s) if guard == "zeros" else np.full_like(s, np.nan)
    return slip


def _broken(o):
    return o.error is not None or not np.all(np.isfinite(np.asarray(o.value, float)))


def _spread(s, a):
    return max(_kept(s, a)) - min(_kept(s, a)) if any(a) else 0.0


def _learner(wrong_where, wrong):
    return lambda s, a: wrong(s, a) if wrong_where(s, a) else _masked_softmax(s, a)


_ROWS = [([1.0, 2.0, 3.0], [True, True, True]),
         ([0.0, 0.0, 0.0, 0.0], [True, False, False, True]),
         ([0.3, -1.2, 2.7, 0.0, 1.1], [True, True, False, True, False]),
         ([1000.0, 999.5, 1001.0], [True, True, False]),  # e^1000 overflows without a shift
         ([740.0, 0.0, 1.5], [False, True, True]),  # a large BLOCKED score: e^(s − 740) subnormal
         ([-400.5, 400.0, 2.0], [True, True, False]),  # shifted by the smallest: e^800.5
         ([1.0, 2.0], [False, False])]  # nothing to attend to

_MASKED_SOFTMAX_SLIPS = [
    ("True read as blocked", "your weights sit on the blocked keys: True means MAY attend.",
     lambda s, a: _masked_softmax(s, [not ok for ok in a])),
    ("the mask ignored", "a softmax over every key: put −∞ on the blocked scores.",
     (lambda s, a: _softmax(s), lambda s, a: _exps(s, a, True) and _softmax(s))),
    ("blocked keys in the total", "the total holds the blocked keys' eˢ: leave them out.",
     (lambda s, a: _softmax(s) * np.asarray(a),
      lambda s, a: _exps(s, a, True) and _softmax(s) * np.asarray(a))),
    ("blocked score set to 0", "a blocked score of 0 still gets e⁰ = 1: make it −∞ "
     "(float('-inf')).",
     (lambda s, a: _softmax(np.where(a, s, 0.0)),
      lambda s, a: _softmax(np.where(a, s, 0.0)) if any(a) else _no())),
    ("no division", "those are the eˢ⁻ᵐᵃˣ: divide by their allowed total.", _exps),
    ("no exponential", "the scores were divided by their total: softmax divides the e^s.",
     lambda s, a: [x / sum(_kept(s, a)) if ok else 0.0
                   for x, ok in zip(s, a, strict=True)] if any(a) else _no()),
    ("only the allowed keys returned", "return one weight per key, 0 for a blocked one.",
     tuple(lambda s, a, e=e: _softmax(_kept(s, a)) if any(a) else e()
           for e in (list, lambda: max([])))),
    ("a fully blocked row spread evenly", "a fully blocked row got 1/{m} each (as −10⁹ for −∞ "
     "gives): it should be all 0.", lambda s, a: _no() if any(a) else [1 / len(s)] * len(s)),
    Slip("0/0 on a fully blocked row", "a fully blocked row has total 0 and no max: check for it "
         "first, return zeros.", when=lambda o: not any(o.case.args[1]) and _broken(o),
         example=_learner(lambda s, a: not any(a), lambda s, a: [math.nan] * len(s))),
    ("the largest score was a blocked one", "shifted by a blocked score, the allowed e^(s − max) "
     "underflow: shift by the largest ALLOWED score.",
     tuple(_max_of_all(g, z) for g in ("raise", "zeros", "nan") for z in (False, True))),
    Slip("no shift", "e¹⁰⁰⁰ overflows: subtract the largest allowed score first.",
         when=lambda o: max(o.case.args[0]) > 700 and _broken(o)
         and not isinstance(o.error, ZeroDivisionError),
         example=_learner(lambda s, a: any(a) and max(_kept(s, a)) > 700,
                          lambda s, a: [math.exp(x) for x in s])),
    Slip("the smallest score subtracted", "the smallest leaves exponents near 800, which overflow: "
         "subtract the LARGEST.", when=lambda o: _spread(*o.case.args) > 700 and _broken(o),
         example=_learner(lambda s, a: _spread(s, a) > 700, lambda s, a: [math.nan] * len(s))),
]


MASKED_SOFTMAX = CodeExercise(
    "masked_softmax", "masked_softmax(scores, allowed)", _ROWS, _masked_softmax,
    _MASKED_SOFTMAX_SLIPS, quantities={"m": lambda s, a: len(s)})


def _grid(rule, side=bool, shift=0, end=0, slide=0):
    """The (B, 1, n, n) mask ``rule(i, j, real)``; ``real(p)``: p is a real token (the last
    lengths[b] if ``side(left_padded)``); the other keywords make slips."""
    def mask(lengths, n, left):
        out = []
        for c in lengths:
            real = ((lambda p, c=c: n - c + shift <= p < n + shift * slide) if side(left)
                    else (lambda p, c=c: p < c + end))
            out.append([[[bool(rule(i, j, real)) for j in range(n)] for i in range(n)]])
        return out
    return mask


def _causal(i, j, real):
    return j <= i and real(j)


_BATCH_MASK_SLIPS = [
    ("no causal part", "the padding mask alone: AND it with j ≤ i.",
     _grid(lambda i, j, real: real(j))),
    ("no padding part", "the causal mask alone: block the filler keys too.",
     _grid(lambda i, j, real: j <= i)),
    ("a query cannot see itself", "j < i leaves out the diagonal: j ≤ i.",
     _grid(lambda i, j, real: j < i and real(j))),
    ("the causal mask upside down", "j ≥ i lets each query see the FUTURE: j ≤ i.",
     _grid(lambda i, j, real: j >= i and real(j))),
    ("left_padded ignored", "right for one side only: with left padding the real tokens are the "
     "LAST lengths[b].", (_grid(_causal, side=lambda left: False),
                          _grid(_causal, side=lambda left: True))),
    ("left and right padding swapped", "left_padded=True puts the real tokens LAST, False puts "
     "them first.", _grid(_causal, side=lambda left: not left)),
    ("padding on the queries", "you blocked the filler QUERIES (rows): block the filler keys "
     "(columns).", _grid(lambda i, j, real: j <= i and real(i))),
    ("padding on queries and keys", "a filler query may attend to real keys: block only filler "
     "keys (columns).", _grid(lambda i, j, real: j <= i and real(i) and real(j))),
    ("left padding one off", "with left padding the first real key is j = n − lengths[b].",
     (_grid(_causal, shift=1), _grid(_causal, shift=-1), _grid(_causal, shift=-1, slide=1))),
    ("one key past the real ones", "the real keys stop BEFORE first + lengths[b]: `<`, not `<=`.",
     _grid(_causal, end=1)),
    ("or for and", "a key must be real AND not later than the query: `and` (or &).",
     _grid(lambda i, j, real: j <= i or real(j))),
    ("lengths[0] for every sequence", "sequence b has its own length, lengths[b]: an index "
     "that never moves?", lambda lengths, *rest: _grid(_causal)(lengths[:1] * len(lengths), *rest)),
]


BATCH_MASK = CodeExercise(
    "batch_mask", "batch_mask(lengths, n, left_padded)",
    [([3, 5], 5, False), ([3, 5], 5, True), ([1, 4, 2], 4, True), ([2, 0], 2, False)],
    _grid(_causal), _BATCH_MASK_SLIPS)

EXERCISES = [MASKED_WEIGHT, MASKED_SOFTMAX, BATCH_MASK]
