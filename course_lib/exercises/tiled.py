"""Exercises of notebooks 14 and 15: the online softmax's running max and running sum, and
how much memory the score grid needs."""

import math

from ..checklist import Question
from ..tiled import attention_memory
from .core import Case, Exercise, Mistake

__all__ = [
    "GPU_QUESTIONS",
    "GRID_MEMORY_EXERCISE",
    "RUNNING_STATS_EXERCISE",
    "TILED_QUESTIONS",
    "check_grid_memory",
    "check_running_stats",
    "evaluate_grid_memory",
    "evaluate_running_stats",
]


# --- notebook 14: running_stats(blocks) -> (M, l) ---------------------------------------------

def _running_stats(blocks):
    """The reference: one pass over the blocks, two numbers kept between them."""
    top, total = -math.inf, 0.0
    for block in blocks:
        new_top = max(top, max(block))
        total = total * math.exp(top - new_top) + math.fsum(math.exp(s - new_top) for s in block)
        top = new_top
    return top, total


def _no_rescale(blocks):
    top, total = -math.inf, 0.0
    for block in blocks:
        top = max(top, max(block))
        total += math.fsum(math.exp(s - top) for s in block)  # the old sum keeps the old max
    return top, total


def _block_max_only(blocks):
    top, total = -math.inf, 0.0
    for block in blocks:
        previous, top = top, max(block)  # the max of this block alone
        total = total * math.exp(previous - top) + math.fsum(math.exp(s - top) for s in block)
    return top, total


def _starts_at_zero(blocks):
    top, total = 0.0, 0.0  # as if a score of 0 had been seen
    for block in blocks:
        new_top = max(top, max(block))
        total = total * math.exp(top - new_top) + math.fsum(math.exp(s - new_top) for s in block)
        top = new_top
    return top, total


def _no_shift(blocks):
    scores = [s for block in blocks for s in block]
    return max(scores), math.fsum(math.exp(s) for s in scores)


_STATS_CASES = [
    [[1.0, 3.0], [2.0, 5.0]],  # the notebook's example: the max rises in the second block
    [[0.5, -1.0, 2.0]],  # one block: the plain stable softmax's numbers
    [[4.0, 1.0], [0.0, 2.0], [3.0]],  # the max comes first: nothing to rescale
    [[-1.0], [0.0], [1.0], [2.0]],  # the max rises at every block
    [[2.0, 2.0], [2.0]],  # ties
    [[-3.0, -5.0], [-4.0, -2.5, -6.0]],  # all negative
    [[1000.0, 999.0], [1001.0, 998.5]],  # e^1000 overflows: shift by the max
    [[-1000.0, -1002.0], [-1001.0]],  # e^−1000 underflows to 0 without the shift
]

class _BlocksCase(Case):
    """A case whose one argument is a list of blocks of different lengths."""

    def size(self):
        return sum(len(block) for block in self.args[0])


RUNNING_STATS_EXERCISE = Exercise(
    "running_stats(blocks)",
    # blocks as tuples: a learner's function cannot change a later case's numbers
    cases=[_BlocksCase((blocks,), _running_stats(blocks))
           for blocks in ([tuple(b) for b in case] for case in _STATS_CASES)],
    reference=_running_stats,
    rtol=1e-9,
    atol=1e-12,
    mistakes=[
        Mistake("no shift by the max",
                "you summed e^s directly. The running sum is l = Σ e^(s − M), with the running "
                "max M subtracted, so that no exponent is positive (e^1000 overflows).",
                imitation=_no_shift),
        Mistake("forgot to rescale",
                "when a block raises the max from M to M′, the sum you had was computed with M; "
                "multiply it by e^(M − M′) before adding the new block's terms.",
                imitation=_no_rescale),
        Mistake("block max instead of running max",
                "you used each block's own max. Keep the largest score seen in ANY block so "
                "far: M′ = max(M, max(block)).",
                imitation=_block_max_only),
        Mistake("started the max at 0",
                "start the running max at −∞ (math.inf with a minus sign), not 0: with scores "
                "far below 0, e^(s − 0) underflows to 0 and the sum vanishes.",
                imitation=_starts_at_zero),
    ],
)


def evaluate_running_stats(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``running_stats``."""
    return RUNNING_STATS_EXERCISE.evaluate(func)


def check_running_stats(func):
    """Print feedback on a learner's ``running_stats(blocks)``."""
    RUNNING_STATS_EXERCISE.check(func)


# --- notebook 15: grid_gib(n, m, bytes_per_number) -> GiB --------------------------------------

def _grid_gib(n, m, bytes_per_number):
    return attention_memory(n, m, 1, 1, itemsize=bytes_per_number)[0] / 2**30


_GRID_CASES = [(32768, 32768, 4), (1024, 2048, 4), (8192, 8192, 2), (4096, 65536, 8),
               (100000, 1000, 4), (16384, 16384, 2)]

GRID_MEMORY_EXERCISE = Exercise(
    "grid_gib(n, m, bytes_per_number)",
    cases=[Case(args) for args in _GRID_CASES],
    reference=_grid_gib,
    rtol=1e-9,
    mistakes=[
        Mistake("used n × n", "the grid has one score per (query, key) pair: n × m numbers, "
                "square only when n = m.", imitation=lambda n, m, b: n * n * b / 2**30),
        Mistake("forgot the bytes", "you counted numbers, not bytes: multiply by "
                "bytes_per_number (4 for float32).", imitation=lambda n, m, b: n * m / 2**30),
        Mistake("bits, not bytes", "a float32 is 4 bytes (32 bits): multiply by "
                "bytes_per_number, not by 8 × bytes_per_number.",
                imitation=lambda n, m, b: n * m * b * 8 / 2**30),
        Mistake("GB, not GiB", "one GiB is 2³⁰ = 1073741824 bytes, not 10⁹ (that is a GB).",
                imitation=lambda n, m, b: n * m * b / 1e9),
    ],
)


def evaluate_grid_memory(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``grid_gib``."""
    return GRID_MEMORY_EXERCISE.evaluate(func)


def check_grid_memory(func):
    """Print feedback on a learner's ``grid_gib(n, m, bytes_per_number)``."""
    GRID_MEMORY_EXERCISE.check(func)


# --- self-test cards of notebooks 14 and 15 ---------------------------------------------------

TILED_QUESTIONS = (
    Question("Why is the n×m score grid the memory problem, and how big is it at "
             "n = m = 32768 in float32?",
             "It grows with n·m while everything else grows with n·d: 32768² scores × 4 bytes "
             "= 4 GiB for one grid (per head, per batch element).", 14),
    Question("What two numbers does the online softmax keep for each query row?",
             "The running max M (the largest score seen so far) and the running sum "
             "l = Σ e^(sⱼ − M) over the keys seen so far (plus the running output "
             "Σ e^(sⱼ − M) vⱼ).", 14),
    Question("A new block raises the max from M to M′. What happens to the running sum?",
             "It is multiplied by e^(M − M′) ≤ 1, which turns every old term e^(s − M) into "
             "e^(s − M′); then the new block's terms e^(s − M′) are added.", 14),
    Question("Is tiled attention an approximation?",
             "No: after the last block, output / l is exactly softmax(S)V; only the order of "
             "the float additions differs, so results agree to rounding.", 14),
)

GPU_QUESTIONS = (
    Question("What changes when you pass CuPy arrays instead of NumPy arrays?",
             "Only where the numbers live and which library computes: the same course_lib "
             "calls return CuPy arrays on the GPU. Plotting and printing need to_numpy.", 15),
    Question("Why is the GPU slower than NumPy for tiny inputs?",
             "Each operation costs a fixed launch (and synchronisation) overhead of "
             "microseconds; the GPU only wins once there are millions of numbers to work on "
             "at once.", 15),
    Question("Does a GPU remove the need for tiled attention?",
             "No: its memory is also limited (a 4 GiB grid per head and batch element adds up "
             "fast), and moving the grid in and out of memory costs time; fast kernels tile "
             "for both reasons.", 15),
)
