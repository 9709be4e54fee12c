"""Notebook 15's checkers: ``grid_gib`` names the unit and operator slips, the two by-hand
numbers (a grid in MiB, the arithmetic intensity of QKᵀ) name the arithmetic slips."""

import math

from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.gpu import (
    GRID_MIB_BY_HAND,
    INTENSITY_BY_HAND,
    check_grid_memory,
    evaluate_grid_memory,
)

SLIPS = {
    "used n × n": [lambda n, m, bytes_per_number: n * n * bytes_per_number / 2**30],
    "added n and m": [lambda n, m, b: (n + m) * b / 2**30],
    "forgot the bytes": [lambda n, m, b: n * m / 2**30, lambda n, m, b: n * m / 1024**3],
    "bits, not bytes": [lambda n, m, b: n * m * b * 8 / 2**30],
    "divided by 8": [lambda n, m, b: n * m * b / 8 / 2**30],
    "always 4 bytes": [lambda n, m, b: n * m * 4 / 2**30, lambda n, m, b: 4 * n * m / 1024**3],
    "KiB, not GiB": [lambda n, m, b: n * m * b / 1024],
    "GB, not GiB": [lambda n, m, b: n * m * b / 1e9, lambda n, m, b: n * m * b / 10**9],
    "MiB, not GiB": [lambda n, m, b: n * m * b / 2**20, lambda n, m, b: n * m * b / 1024 / 1024],
    "returned bytes": [lambda n, m, b: n * m * b],
    "^ is not a power": [lambda n, m, b: n * m * b / (2 ^ 30), lambda n, m, b: n * m * b / 2 ^ 30,
                         lambda n, m, b: n * m * b / (1024 ^ 3)],
    "2 * 30": [lambda n, m, b: n * m * b / 2 * 30, lambda n, m, b: n * m * b / (2 * 30)],
    "multiplied by 2³⁰": [lambda n, m, b: n * m * b * 2**30],
    "integer division": [lambda n, m, b: n * m * b // 2**30,
                         lambda n, m, b: n * m * b // 1024 // 1024 // 1024],
    "times instead of power": [lambda n, m, b: n * m * b / (1024 * 3)],
    "rounded the result": [lambda n, m, b: round(n * m * b / 2**30, 2)],
    "always 2 bytes": [lambda n, m, b: n * m * 2 / 2**30],
    "always 8 bytes": [lambda n, m, b: n * m * 8 / 2**30],
    "forgot m": [lambda n, m, b: n * b / 2**30],
    "used m × m": [lambda n, m, b: m * m * b / 2**30],
    "divided by the bytes": [lambda n, m, b: n * m / b / 2**30],
    "divisor far too big": [lambda n, m, b: n * m * b / 2e30, lambda n, m, b: n * m * b / 2**10**3,
                            lambda n, m, b: n * m * b / 2**3**10],
    "rounded up": [lambda n, m, b: math.ceil(n * m * b / 2**30)],
}


def test_right_answers_pass():
    for answer in (lambda n, m, b: n * m * b / 2**30, lambda n, m, b: n * m * b / 1024**3,
                   lambda n, m, b: float(n) * m * b / 1073741824):
        feedback = evaluate_grid_memory(answer)
        assert feedback.passed, str(feedback)


def test_every_slip_is_named():
    assert_slips_named(evaluate_grid_memory, SLIPS)


def test_never_crashes():
    assert_never_crashes(evaluate_grid_memory)


def test_stub_output(capsys):
    def grid_gib(n, m, bytes_per_number):
        raise NotImplementedError

    check_grid_memory(grid_gib)
    assert capsys.readouterr().out.startswith("Not attempted yet")


GRID_MIB_SLIPS = {  # 8192 × 2048 float16 scores = 32 MiB
    "float32's 4 bytes": [64], "bits": [256], "n × n": [128], "m × m": [8],
    "numbers, not bytes": [16], "MB, not MiB": [33.55, "33.554"],
    "GiB, not MiB": [0.03125], "KiB, not MiB": [32768], "decimal point moved": [3.2, 320],
    "sign turned round": [-32],
    "n + m, not n × m": [(8192 + 2048) * 2 / 2**20], "divided by 8": [4],
    "MiB as 1024 × 1000": [32.768], "bytes, not MiB": [33554432],
    "numbers, in KiB": [16384],
}

INTENSITY_SLIPS = {  # 2·1024·2048·64 FLOP over (1024·64 + 2048·64 + 1024·2048)·4 bytes
    "no factor 2": [14.63], "forgot writing S": [341.3], "numbers, not bytes": [117.0],
    "n × n grid": [53.9], "forgot K": [31.03], "forgot Q": [30.12],
    "bytes per FLOP": [0.0342], "bits": [3.657], "decimal point moved": [292.6],
    "rounded too early": [29.0],
    "float16's 2 bytes": [58.51], "forgot d_k in the FLOPs": [0.457], "only writing S": [32],
}


def test_by_hand_grid_size():
    assert GRID_MIB_BY_HAND.evaluate(32).passed and GRID_MIB_BY_HAND.evaluate("32.0").passed
    assert_slips_named(GRID_MIB_BY_HAND.evaluate, GRID_MIB_SLIPS)
    assert_never_crashes(GRID_MIB_BY_HAND.evaluate, kind="number")


def test_by_hand_intensity():
    assert INTENSITY_BY_HAND.evaluate(29.26).passed and INTENSITY_BY_HAND.evaluate(29.3).passed
    assert_slips_named(INTENSITY_BY_HAND.evaluate, INTENSITY_SLIPS)
    assert_never_crashes(INTENSITY_BY_HAND.evaluate, kind="number")
