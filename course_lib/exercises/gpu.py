"""Exercises of notebook 15: how big a score grid is, and how much arithmetic it buys per byte
of memory traffic.

Slips of ``grid_gib(n, m, bytes_per_number)`` (each hint shows the hidden case where it showed):

* used n × n — the grid is n × m, square only when n = m;
* added n and m — (n + m) numbers instead of n · m;
* forgot the bytes — counted numbers, not bytes;
* bits, not bytes — multiplied by 8 × bytes_per_number;
* divided by 8 — bytes turned into "bits" the wrong way;
* always 4 bytes — float32's 4 hard-coded instead of bytes_per_number;
* GB, not GiB — divided by 10⁹ instead of 2³⁰;
* MiB, not GiB — divided by 2²⁰; KiB, not GiB — divided by 2¹⁰;
* returned bytes — never divided by 2³⁰;
* ^ is not a power — ``2^30`` (or ``1024^3``) is XOR in Python: 28 (1027);
* 2 * 30 — ``/ 2*30`` or ``/ (2*30)`` instead of ``/ 2**30``;
* multiplied by 2³⁰ — the unit change the wrong way round;
* integer division — ``//`` rounds 0.0078 GiB down to 0;
* times instead of power — ``1024*3`` (3072) instead of ``1024**3``;
* rounded the result — ``round(…, 2)`` turns 0.0078 GiB into 0.01;
* always 2 bytes / always 8 bytes — one size hard-coded;
* forgot m — n · bytes only; used m × m — the grid taken as m × m;
* divided by the bytes — ``/ bytes_per_number`` instead of ``*``;
* divisor far too big — ``2e30`` (2 × 10³⁰) or ``2**10**3`` for 2³⁰: practically 0;
* rounded up — ``math.ceil`` gives a whole number of GiB.

Slips of the by-hand grid size in MiB (:data:`GRID_MIB_BY_HAND`): float32's 4 bytes; bits;
n × n; m × m; numbers, not bytes; MB, not MiB; GiB, not MiB; KiB, not MiB;
n + m, not n × m; divided by 8; MiB as 1024 × 1000; bytes, not MiB;
numbers, in KiB.

Slips of the by-hand arithmetic intensity of S = QKᵀ (:data:`INTENSITY_BY_HAND`): no factor 2;
forgot writing S; numbers, not bytes; n × n grid; forgot K; forgot Q; bytes per FLOP; bits;
float16's 2 bytes; forgot d_k in the FLOPs; only writing S.
"""

from ._detect import rounded
from ._units import practically_zero, whole_down, whole_up, xor_on_a_float
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["GRID_MEMORY_EXERCISE", "GRID_MIB_BY_HAND", "INTENSITY_BY_HAND", "check_grid_memory",
           "check_grid_mib", "check_intensity", "evaluate_grid_memory"]

GIB = 2**30


def _grid_gib(n, m, bytes_per_number):
    return n * m * bytes_per_number / GIB  # (n, m) scores, each bytes_per_number bytes


_GRID_CASES = [(32768, 32768, 4), (1024, 2048, 4), (8192, 8192, 2), (4096, 65536, 8),
               (100000, 1000, 4), (16384, 16384, 2), (3000, 5000, 2)]
_GOT = "{call} gave {got}; the answer is {expected}."
_GRID_SLIPS = [  # (name, hint after _GOT, imitation)
    ("used n × n", "The grid has one score per (query, key) pair: n × m numbers, square only "
     "when n = m.", lambda n, m, b: n * n * b / GIB),
    ("added n and m", "The grid holds n × m scores (every query with every key), not n + m.",
     lambda n, m, b: (n + m) * b / GIB),
    ("forgot the bytes", "You counted numbers, not bytes: multiply by bytes_per_number (4 for "
     "float32).", lambda n, m, b: n * m / GIB),
    ("bits, not bytes", "bytes_per_number is already in bytes (float32: 4 bytes = 32 bits): "
     "do not multiply by 8.", lambda n, m, b: n * m * b * 8 / GIB),
    ("divided by 8", "bytes_per_number is already in bytes: multiply by it, and do not divide "
     "by 8.", lambda n, m, b: n * m * b / 8 / GIB),
    ("always 4 bytes", "You used 4 bytes a score whatever bytes_per_number says: multiply by "
     "bytes_per_number (2 for float16, 8 for float64).", lambda n, m, b: n * m * 4 / GIB),
    ("GB, not GiB", "One GiB is 2³⁰ = 1073741824 bytes, not 10⁹ (that is a GB).",
     lambda n, m, b: n * m * b / 1e9),
    ("MiB, not GiB", "You divided by 2²⁰ (that gives MiB); one GiB is 2³⁰ bytes.",
     lambda n, m, b: n * m * b / 2**20),
    ("KiB, not GiB", "You divided by 2¹⁰ (that gives KiB); one GiB is 2³⁰ bytes.",
     lambda n, m, b: n * m * b / 2**10),
    ("returned bytes", "That is the number of bytes: divide by 2³⁰ to get GiB.",
     lambda n, m, b: n * m * b),
    ("^ is not a power", "In Python `^` is bitwise XOR (2^30 is 28, 1024^3 is 1027): write "
     "powers with `**`, 2**30.", lambda n, m, b: n * m * b / (2 ^ 30)),
    ("^ is not a power", "In Python `^` is bitwise XOR (1024^3 is 1027, 2^30 is 28): write "
     "powers with `**`, 1024**3.", lambda n, m, b: n * m * b / (1024 ^ 3)),
    ("2 * 30", "`2*30` is 60; the power is `2**30` (two stars).",
     lambda n, m, b: n * m * b / 2 * 30),
    ("2 * 30", "`2*30` is 60; the power is `2**30` (two stars).",
     lambda n, m, b: n * m * b / (2 * 30)),
    ("multiplied by 2³⁰", "Going from bytes to the bigger unit GiB makes the number smaller: "
     "divide by 2³⁰.", lambda n, m, b: n * m * b * GIB),
    ("always 2 bytes", "You used 2 bytes a score whatever bytes_per_number says: multiply by "
     "bytes_per_number.", lambda n, m, b: n * m * 2 / GIB),
    ("always 8 bytes", "You used 8 bytes a score whatever bytes_per_number says: multiply by "
     "bytes_per_number.", lambda n, m, b: n * m * 8 / GIB),
    ("forgot m", "The grid has n × m scores; you left out m, the number of keys.",
     lambda n, m, b: n * b / GIB),
    ("used m × m", "The grid has one score per (query, key) pair: n × m numbers, not m × m.",
     lambda n, m, b: m * m * b / GIB),
    ("divided by the bytes", "Each score TAKES bytes_per_number bytes: multiply by it, do not "
     "divide.", lambda n, m, b: n * m / b / GIB),
    ("times instead of power", "`1024*3` is 3072; a GiB is 1024 × 1024 × 1024 = `1024**3` "
     "bytes.", lambda n, m, b: n * m * b / (1024 * 3)),
]

GRID_MEMORY_EXERCISE = Exercise(
    "grid_gib(n, m, bytes_per_number)",
    cases=[Case(args) for args in _GRID_CASES],
    reference=_grid_gib,
    rtol=1e-9,
    mistakes=[Mistake("^ is not a power", "{call} raised TypeError: in Python `^` is bitwise "
                      "XOR, not a power, and `x / 2^30` even reads as `(x / 2) ^ 30`. Write "
                      "powers with `**`: 2**30.", detect=xor_on_a_float),
              *[Mistake(name, _GOT + " " + hint, imitation=imitation)
                for name, hint, imitation in _GRID_SLIPS],
              Mistake("divisor far too big", "{call} gave {got}, practically 0: the divisor is "
                      "far too big (2e30 is 2 × 10³⁰; 2**10**3 is 2¹⁰⁰⁰). A GiB is 2**30 = "
                      "1024**3 bytes; the answer is {expected}.", detect=practically_zero),
              Mistake("integer division", _GOT + " The answer was rounded down to a whole "
                      "number of GiB (`//` or int()); use `/`.", detect=whole_down),
              Mistake("rounded up", _GOT + " math.ceil rounded the size UP to a whole number of "
                      "GiB; keep the decimals.", detect=whole_up),
              Mistake("rounded the result", "{call} gave {got}, rounded: keep every decimal "
                      "(round only when you print); the answer is {expected}.", detect=rounded)],
)


def evaluate_grid_memory(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``grid_gib``."""
    return GRID_MEMORY_EXERCISE.evaluate(func)


def check_grid_memory(func):
    """Print feedback on a learner's ``grid_gib(n, m, bytes_per_number)``."""
    GRID_MEMORY_EXERCISE.check(func)


_N, _M, _MIB = 8192, 2048, 2**20  # the grid size by hand: float16, 2 bytes a score
GRID_MIB_BY_HAND = HandExercise("the float16 score grid of n = 8192, m = 2048, in MiB",
                                _N * _M * 2 / _MIB, slips=[
    Slip("float32's 4 bytes", _N * _M * 4 / _MIB, "{got} counts 4 bytes a score; float16 "
         "takes 2."),
    Slip("bits", _N * _M * 16 / _MIB, "{got} counts 16 bits a score as 16 bytes: float16 is "
         "2 bytes."),
    Slip("n × n", _N * _N * 2 / _MIB, "{got} is an n × n grid; there are m = 2048 keys, so "
         "n × m scores."),
    Slip("m × m", _M * _M * 2 / _MIB, "{got} is an m × m grid; there are n = 8192 queries, so "
         "n × m scores."),
    Slip("numbers, not bytes", _N * _M / _MIB, "{got} counts scores; each takes 2 bytes."),
    Slip("MB, not MiB", _N * _M * 2 / 1e6, "{got} divides by 10⁶ (MB); one MiB is 2²⁰ = "
         "1048576 bytes."),
    Slip("GiB, not MiB", _N * _M * 2 / 2**30, "{got} is in GiB (÷ 2³⁰); the question asks "
         "for MiB (÷ 2²⁰)."),
    Slip("KiB, not MiB", _N * _M * 2 / 2**10, "{got} is in KiB (÷ 2¹⁰); one MiB is 2²⁰ "
         "bytes."),
    Slip("numbers, in KiB", _N * _M / 2**10, "{got} counts the scores and divides by "
         "2¹⁰: times 2 bytes, then ÷ 2²⁰ for MiB."),
    Slip("bytes, not MiB", _N * _M * 2, "{got} is the size in bytes: divide by 2²⁰ for "
         "MiB."),
    Slip("n + m, not n × m", (_N + _M) * 2 / _MIB, "{got} counts n + m scores; the grid has "
         "one score per query AND key: n × m."),
    Slip("divided by 8", _N * _M * 2 / 8 / _MIB, "{got} divides by 8, as if bits were to be "
         "turned into bytes; float16 is already 2 bytes a score."),
    Slip("MiB as 1024 × 1000", _N * _M * 2 / 1024 / 1000, "{got} divides by 1024 × 1000; one "
         "MiB is 1024 × 1024 = 2²⁰ bytes."),
], tolerance=0.01)


def check_grid_mib(value):
    """Print feedback on the learner's size of the 8192 × 2048 float16 grid in MiB."""
    GRID_MIB_BY_HAND.check(value)


_D, _B = 64, 4  # S = QKᵀ with n = 1024, m = 2048, d_k = 64, float32
_FLOPS = 2 * 1024 * 2048 * _D  # one multiply and one add per term of each dot product
_READ_Q, _READ_K, _WRITE_S = 1024 * _D * _B, 2048 * _D * _B, 1024 * 2048 * _B
INTENSITY_BY_HAND = HandExercise("the arithmetic intensity of S = QKᵀ, in FLOP per byte",
                                 _FLOPS / (_READ_Q + _READ_K + _WRITE_S), slips=[
    Slip("no factor 2", _FLOPS / 2 / (_READ_Q + _READ_K + _WRITE_S), "{got} counts n·m·d_k "
         "operations; each term of a dot product is a multiply AND an add: 2·n·m·d_k."),
    Slip("forgot writing S", _FLOPS / (_READ_Q + _READ_K), "{got} counts only reading Q and "
         "K; the n × m scores must be written out too, and they are most of the bytes."),
    Slip("numbers, not bytes", _FLOPS / ((_READ_Q + _READ_K + _WRITE_S) / _B), "{got} divides "
         "by the count of numbers; each float32 is 4 bytes."),
    Slip("n × n grid", _FLOPS / (_READ_Q + _READ_K + 1024 * 1024 * _B), "{got} writes an "
         "n × n grid; S is n × m = 1024 × 2048."),
    Slip("forgot K", _FLOPS / (_READ_Q + _WRITE_S), "{got} leaves out reading K (m × d_k "
         "numbers)."),
    Slip("forgot Q", _FLOPS / (_READ_K + _WRITE_S), "{got} leaves out reading Q (n × d_k "
         "numbers)."),
    Slip("bytes per FLOP", (_READ_Q + _READ_K + _WRITE_S) / _FLOPS, "{got} is bytes per "
         "operation; the intensity is operations ÷ bytes."),
    Slip("bits", _FLOPS / ((_READ_Q + _READ_K + _WRITE_S) * 8), "{got} divides by bits; "
         "count bytes (4 per float32)."),
    Slip("float16's 2 bytes", _FLOPS / ((_READ_Q + _READ_K + _WRITE_S) / 2), "{got} counts 2 "
         "bytes a number; the grids here are float32, 4 bytes."),
    Slip("forgot d_k in the FLOPs", 2 * 1024 * 2048 / (_READ_Q + _READ_K + _WRITE_S), "{got} "
         "counts 2·n·m operations; each of the n·m dot products has d_k = 64 terms: 2·n·m·d_k."),
    Slip("only writing S", _FLOPS / _WRITE_S, "{got} counts only writing S; Q and K must be "
         "read too: (n·d_k + m·d_k + n·m) × 4 bytes."),
], tolerance=0.05)


def check_intensity(value):
    """Print feedback on the learner's arithmetic intensity of S = QKᵀ."""
    INTENSITY_BY_HAND.check(value)
