"""Notebook 14's by-hand share of skipped causal tiles: each slip made the way a beginner
makes it, and named."""

from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.tiles import SKIPPED_SHARE_BY_HAND, check_skipped_share
from course_lib.tiles import causal_tiles

SKIPPED_SHARE_SLIPS = {  # n = m = 640, tiles of 128: 10 of 25 tiles skipped
    "on or below the diagonal": [0.6, 15 / 25, "0.6"],
    "exactly half": [0.5, 1 / 2],
    "a percentage": [40, "40"],
    "a count, not a share": [10],
    "forgot the halving": [0.8, 20 / 25],
    "128 tiles a side": [127 / 256, 0.496],
    "skipped over computed": [10 / 15, 0.667],
    "the diagonal's share": [0.2, 5 / 25],
    "rounded too early": [0.41, 0.398],
    "sign turned round": [-0.4],
    "decimal point moved": [4.0, 0.04],
    "counted the tiles": [25, 5 * 5],
    "six tiles a side": [15 / 36, 0.417],
    "two tiles fewer": [0.24], "tiles a side": [5], "ten of 36": [0.278],
    "counted the computed tiles": [15],
}


def test_the_answer_is_what_causal_tiles_counts():
    assert SKIPPED_SHARE_BY_HAND.answer == causal_tiles(640, 640, 128).skipped_share


def test_by_hand_skipped_share():
    for right in (0.4, "0.4", 10 / 25, 0.4004):
        assert SKIPPED_SHARE_BY_HAND.evaluate(right).passed, right
    assert_slips_named(SKIPPED_SHARE_BY_HAND.evaluate, SKIPPED_SHARE_SLIPS)
    assert_never_crashes(SKIPPED_SHARE_BY_HAND.evaluate, kind="number")


def test_the_stub_says_not_attempted(capsys):
    check_skipped_share(...)
    assert capsys.readouterr().out.startswith("Not attempted yet")
