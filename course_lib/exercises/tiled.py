"""Notebook 14: l′, the skipped share, a weight from the LSE by hand; the online softmax."""

import math
import sys

from .engine import CodeExercise
from .feedback import NoPrediction, Slip, slip_rows
from .hand import HandExercise

_E = math.exp
_RET = "the `return` is inside the loop: one indent less."
_NEW = "the new terms are e^(s − M′), with the NEW max."


# --- by hand: l′

def _by_hand(formula):
    """formula(l, f = e^(M − M′), the new terms e^(s − M′), M, M′, s) of the givens."""
    def answer(M, l, s):
        top = max(M, *s)
        return formula(l, _E(M - top), [_E(x - top) for x in s], M, top, s)
    return answer


_UPDATE_BY_HAND_SLIPS = slip_rows([
    ("factor upside down", "the factor is e^(M − M′), old max minus new: at most 1.",
     lambda l, f, t, *_: l / f + sum(t)),
    ("no rescale", "l was summed under the old max: multiply it by e^(M − M′) first.",
     lambda l, f, t, *_: l + sum(t)),
    ("rescaled the new block", "e^(M − M′) belongs to the old l; the new terms use M′.",
     lambda l, f, t, *_: l + f * sum(t)),
    ("rescaled everything", "only the old l gets e^(M − M′); the new terms use M′.",
     lambda l, f, t, *_: (l + sum(t)) * f),
    ("the old max for the new terms", _NEW,
     lambda l, f, t, M, top, s: l * f + sum(_E(x - M) for x in s)),
    ("e⁰ left out", "the block's largest score gives e^(M′ − M′) = e⁰ = 1, not 0.",
     lambda l, f, t, *_: l * f + sum(t) - 1),
    ("the factor added", "multiply l by e^(M − M′); do not add it.",
     lambda l, f, t, *_: l + f + sum(t)),
    ("exponent sign flipped", "each term is e^(s − M′), score minus max: at most 1.",
     lambda l, f, t, M, top, s: l * f + sum(_E(top - x) for x in s)),
    ("no shift for the new terms", "{got} adds e^s: subtract the new max, e^(s − M′).",
     lambda l, f, t, M, top, s: l * f + sum(_E(x) for x in s)),
    ("the sum kept under the old max", "{got} is the sum under M: l′ is e^(M − M′) · l + "
     "Σ e^(s − M′).", lambda l, f, t, M, top, s: l + sum(_E(x - M) for x in s)),
    ("the scores added as they are", "add e^(s − M′), not s.",
     lambda l, f, t, M, top, s: l * f + sum(s)),
], _by_hand)


UPDATE_BY_HAND = HandExercise(
    "online update by hand", "l′ for M = {M}, l = {l} and a new block of scores {s}",
    _by_hand(lambda l, f, t, *_: l * f + sum(t)), {"M": 2, "l": 1.5, "s": [3, 1]},
    _UPDATE_BY_HAND_SLIPS, tolerance=0.005,
    twins=[("M′ for l′", "{got} is the new max M′; l′ is the new sum.",
            lambda M, l, s: max(M, *s))])


# --- by hand: the skipped share

def _tiles(formula):
    return lambda n, b: formula(n // b)


_SKIPPED_SHARE_BY_HAND_SLIPS = slip_rows(make=_tiles, rows=[
    ("the computed share", "{got} counts the diagonal's tiles too: only those above it are "
     "skipped.",
     lambda t: t * (t + 1) / 2 / t**2),
    ("exactly half", "half is the limit of many small tiles; count the tiles here.", lambda t: 0.5),
    ("a count, not a share", "{got} counts the skipped tiles: divide by all the tiles.",
     lambda t: t * (t - 1) / 2),
    ("the halving forgotten", "T(T − 1) counts both triangles: halve it.",
     lambda t: t * (t - 1) / t**2),
    ("skipped over computed", "divide by ALL the tiles, T², not by those computed.",
     lambda t: (t - 1) / (t + 1)),
    ("the diagonal's share", "{got} = 1/T is the diagonal's: above it lie 1 + 2 + … + (T − 1) of "
     "the T² tiles.", lambda t: 1 / t),
    ("one tile fewer a side", "640 / 128 = 5 tiles a side, counted from 0 to 4.",
     lambda t: (t - 2) / (2 * (t - 1))),
])


SKIPPED_SHARE_BY_HAND = HandExercise(
    "skipped share by hand", "the share of {b} × {b} tiles a causal mask skips at n = m = {n}",
    _tiles(lambda t: t * (t - 1) / 2 / t**2), {"n": 640, "b": 128}, _SKIPPED_SHARE_BY_HAND_SLIPS,
    tolerance=0.001,
    twins=[("scores, not tiles", "{got} counts the scores above the diagonal: count whole "
            "tiles.", lambda n, b: (n - 1) / (2 * n))])


# --- by hand: A = e^(s − L)

_LSE_WEIGHT_BY_HAND_SLIPS = [
    ("the sum left out", "{got} is e^(s − M): L = M + ln l holds the sum too.",
     lambda M, l, s: _E(s - M)),
    ("the max left out", "{got} uses ln l alone: L = M + ln l.",
     lambda M, l, s: _E(s - math.log(l))),
    ("no logarithm", "L adds ln l, not l: L = M + ln l.", lambda M, l, s: _E(s - M - l)),
    ("log₁₀ for ln", "L uses the natural logarithm ln, the inverse of e^x.",
     lambda M, l, s: _E(s - M - math.log10(l))),
    ("L itself", "{got} is L: the weight is e^(s − L).", lambda M, l, s: M + math.log(l)),
    ("no exponential", "{got} is s − L: the weight is e^(s − L).",
     lambda M, l, s: s - M - math.log(l)),
    ("the exponent upside down", "the weight is e^(s − L), score minus L: at most 1.",
     lambda M, l, s: _E(M + math.log(l) - s)),
    ("multiplied by l", "{got} is e^(s − M) · l: the weight divides by l, e^(s − M) / l.",
     lambda M, l, s: _E(s - M) * l),
    ("L as a product", "L = M + ln l, a sum: the weight is e^(s − M − ln l).",
     (lambda M, l, s: _E(s - M * math.log(l)), lambda M, l, s: _E(s - M * l))),
    ("the log of M + l", "L = M + ln l: the log takes l alone.",
     lambda M, l, s: _E(s - math.log(M + l))),
    ("divided where L is subtracted", "the weight is e^(s − L) = e^(s − M) / l.",
     (lambda M, l, s: s / (M + math.log(l)), lambda M, l, s: _E(s) / (M + math.log(l)),
      lambda M, l, s: _E(s - M) / math.log(l))),
]


LSE_WEIGHT_BY_HAND = HandExercise(
    "weight from the logsumexp",
    "the weight of a score {s} from LSE, for a row with M = {M} and l = {l}",
    lambda M, l, s: _E(s - M - math.log(l)), {"M": 3, "l": 2.5, "s": 1.5},
    _LSE_WEIGHT_BY_HAND_SLIPS, tolerance=0.001)


# --- the online softmax

def _upside(old, new):
    return _E(new - old)


def _fold(blocks, values=None, *, start=-math.inf, factor=lambda old, new: _E(old - new),
          shift="new", block_max=False, sign=1, on_new=False, added=False, rescale_o=True,
          weights_only=False, from_first=False, rescale_l=True, plain=False, both=False, last=0):
    """The running max M, sum l and output o after the blocks; each keyword is one slip."""
    values = values or [[0.0] * len(b) for b in blocks]
    M, l, o = start, 0.0, 0.0
    if from_first:  # the first block's own numbers, then the slip from the second on
        M, l, o = _fold(blocks[:1], values[:1])
        blocks, values = blocks[1:], values[1:]
    for block, vals in zip(blocks, values, strict=True):
        top = max(block) if block_max else max(M, max(block))
        base = {"new": top, "old": M, "zero": 0.0, "block": max(block)}[shift]
        w = [_E(sign * (s - base)) for s in block]
        f = factor(M, top)
        wv = sum(vals) if plain else sum(
            x * (1.0 if weights_only else v) for x, v in zip(w, vals, strict=False))
        if on_new:
            l, o = l + f * sum(w), o + f * wv
        elif added:
            l, o = l + f + sum(w), o + f + wv
        elif both:
            f = 1 if math.isinf(M) else f
            l, o = (l + sum(w)) * f, (o + wv) * f
        else:
            l = (l * f if rescale_l else l) + sum(w)
            o = (o * f if rescale_o else o) + wv
        M = top
    return (M, l / _E(M), o / _E(M)) if last else (M, l, o)  # e^s ÷ e^M at the end


def _one(old, new):
    return 1.0


_COMMON = [  # name, hint, forms (keywords of _fold)
    ("rescale factor upside down", "the factor is e^(M − M′), old max minus new, ≤ 1 (on block 0 "
     "e^(M′ − (−∞)) = ∞, and 0 · ∞ is NaN).",
     [{"factor": _upside, "nan": True}, {"factor": _upside, "from_first": True}]),
    ("forgot to rescale", "when the max rises, multiply the sums by e^(M − M′), found before M "
     "is overwritten.", [{"factor": _one}]),
    ("rescaled the new block", "e^(M − M′) belongs to the OLD sums; the new terms already use M′.",
     [{"on_new": True}]),
    ("the old max for the new block", _NEW,
     [{"shift": "old", "nan": True}, {"shift": "old", "from_first": True}]),
    ("exponent sign flipped", "each term is e^(s − M), score minus max: at most 1.",
     [{"sign": -1}]),
    ("block max instead of running max", "keep the largest score of ANY block so far: "
     "M′ = max(M, max(block)).", [{"block_max": True}]),
    ("started the max at 0", "start M at −∞ (`-math.inf`): far below 0, e^(s − 0) underflows.",
     [{"start": 0.0}]),
    ("no shift by the max", "e^s overflows past s ≈ 709: subtract the running max, e^(s − M).",
     [{"shift": "zero", "factor": _one}, {"shift": "zero", "factor": _one, "last": 1}]),
    ("the factor added", "multiply by e^(M − M′); do not add it.", [{"added": True}]),
    ("the block's own max for its terms", "the new terms are e^(s − M′), M′ = max(M, "
     "max(block)).", [{"shift": "block"}]),
    ("rescaled everything", "only the old sums get e^(M − M′).", [{"both": True}]),
    ("the old sums dropped", "carry them: l′ = l · e^(M − M′) + Σ e^(s − M′).",
     [{"factor": lambda old, new: 0.0}]),
]


def _rows(forms_of, rows, nan=True):
    """Slips from rows; ``nan=False``: without the forms that give NaN."""
    return [(name, hint, tuple(forms_of(**{k: v for k, v in f.items() if k != "nan"})
                                     for f in forms if nan or "nan" not in f))
            for name, hint, forms in rows]


# --- running_stats

def _stats(**slip):
    return lambda blocks: _fold(list(blocks), **slip)[:2]


_RUNNING_STATS_SLIPS = _rows(_stats, _COMMON) + [
    ("returned (l, M)", "the right numbers in the wrong order: `return M, l`.",
     lambda blocks: _stats()(blocks)[::-1]),
    ("new terms under the old max", "with the OLD max, e^(s − M) overflows when a block's max "
     "jumps: shift the new terms by M′; rescale only l.",
     _stats(shift="old", both=True, from_first=True)),
    Slip("two passes over the blocks", "a max of ALL the blocks first reads each block twice: keep "
         "a running max M; rescale l when it rises.", raises=(RuntimeError, "once")),
]


class _Blocks(tuple):
    """Blocks the learner's code may read in one pass only."""

    def __deepcopy__(self, memo):
        return _Blocks(self[:])

    def __iter__(self):
        if not sys._getframe(1).f_globals.get("__name__", "").startswith("course_lib"):
            if self.__dict__.setdefault("read", 0):
                raise RuntimeError("the blocks arrive once: no second pass over them")
            self.read = 1
        return tuple.__iter__(self)


RUNNING_STATS = CodeExercise(
    "running_stats", "running_stats(blocks)",
    [(_Blocks(tuple(b) for b in blocks),) for blocks in [
        [[1.0, 3.0], [2.0, 5.0]], [[0.5, -1.0, 2.0]], [[4.0, 1.0], [0.0, 2.0], [3.0]],
        [[-1.0], [0.0], [1.0], [2.0]], [[2.0, 2.0], [2.0]], [[-3.0, -5.0], [-4.0, -2.5, -6.0]],
        [[0.0, 1.5, -0.5], [3.0, 0.25]], [[1000.0, 999.0], [1001.0, 998.5]],
        [[-1000.0, -1002.0], [-1001.0]], [[-1000.0], [1000.0]], [[-800.0], [0.5], [800.0]]]],
    # the last two: maxima that jump by more than 709, past what e^(s − M) can hold
    _stats(), _RUNNING_STATS_SLIPS, atol=1e-12)


# --- online_output

def _cut(scores, values, b, end=0, whole=False, every=False, shift=0):
    starts = range(0, len(scores) - (b - 1 if whole else 0), 1 if every else b)
    return ([scores[i:i + b + end] for i in starts],
            [values[i + shift:i + b + end + shift] for i in starts])


def _output(cut=None, divide=True, **slip):
    def output(scores, values, b):
        blocks, vals = _cut(scores, values, b, **(cut or {}))
        if not blocks or (slip.get("shift") == "zero" and max(scores) < -700):
            raise NoPrediction  # all of e^s underflows: "started the max at 0" says it
        _, l, o = _fold(blocks, vals, **slip)
        out = o / l if divide else o
        if math.isnan(out):  # ∞ from block 0: the NaN row below names it
            raise NoPrediction
        return out
    return output


_ONLINE_OUTPUT_SLIPS = _rows(_output, _COMMON, nan=False) + [
    ("rescaled only l", "o was summed under the old max too: o · e^(M − M′) as well.",
     _output(rescale_o=False)),
    ("rescaled only o", "l was summed under the old max too: l · e^(M − M′) as well.",
     _output(rescale_l=False)),
    ("forgot the values", "o adds each weight times its value: e^(s − M′) · v.",
     _output(weights_only=True)),
    ("the values unweighted", "o adds each value times its weight, e^(s − M′) · v.",
     _output(plain=True)),
    ("no final division", "{got} is o: return o / l, divided once after the last "
     "block.", _output(divide=False)),
    ("block ends one short", "a slice leaves out its end: scores[start:start + block_size], no "
     "− 1.", _output({"end": -1})),
    ("a block at every key", "the blocks start block_size apart: range(0, len(scores), "
     "block_size).", _output({"every": True})),
    ("lost the last partial block", "range(0, len(scores), block_size) also starts the short last "
     "block.", _output({"whole": True})),
    ("stopped after the first block", _RET, lambda s, v, b: _output()(s[:b], v[:b], b)),
    ("the values one place off", "a block's values are the SAME slice as its scores.",
     _output({"shift": 1})),
    ("the blocks' outputs averaged", "a block counts by its sum l, not equally: carry M, l and o "
     "along.", lambda s, v, b: sum(_output()(s[i:i + b], v[i:i + b], b) for i in
                                                range(0, len(s), b)) / -(-len(s) // b)),
]


ONLINE_OUTPUT = CodeExercise(
    "online_output", "online_output(scores, values, block_size)",
    [(tuple(s), tuple(v), b) for s, v, b in [
        ([1.0, 3.0, 2.0, 5.0], [0.0, 1.0, 2.0, 3.0], 2),
        ([0.5, -1.0, 2.0, 1.0, 0.0], [1.0, -1.0, 2.0, 0.5, 3.0], 2),
        ([-3.0, -5.0, -4.0, -2.5, -6.0], [0.0, 1.0, 0.0, 1.0, 0.0], 2),
        ([0.3, 1.2, -0.7, 2.2, 0.1, 1.9], [1.0, 0.0, -1.0, 2.0, 0.5, 3.0], 4),
        ([1000.0, 999.0, 1001.0, 998.5], [1.0, 2.0, 3.0, 4.0], 2),
        ([-1000.0, -1002.0, -1001.0], [5.0, -5.0, 1.0], 2),
        ([750.0, 749.0, 0.0, 1.0], [1.0, 2.0, 3.0, 4.0], 2),
        ([900.0, 899.0, 1.5], [1.0, -1.0, 2.0], 2),
        ([300.0, -500.0, 0.0], [1.0, 2.0, 3.0], 1),  # a block's max falls by 800
        ([-800.0, -799.5], [2.0, 4.0], 1)]],
    _output(), _ONLINE_OUTPUT_SLIPS, atol=1e-12,
    quantities={"m": lambda s, v, b: len(s), "block_size": lambda s, v, b: b})

EXERCISES = [UPDATE_BY_HAND, SKIPPED_SHARE_BY_HAND, LSE_WEIGHT_BY_HAND, RUNNING_STATS,
             ONLINE_OUTPUT]
