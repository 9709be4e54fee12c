"""Exercise of notebook 14: the share of tiles a causal mask lets tiled attention skip.

n = m = 640 queries and keys, tiles of 128 × 128: 5 tiles a side, 25 in all; the
5 · 4 / 2 = 10 above the diagonal hold only blocked scores, so 10 / 25 = 0.4 are skipped.

Slips of the by-hand skipped share (:data:`SKIPPED_SHARE_BY_HAND`):

* on or below the diagonal — 15 / 25: the diagonal tiles counted as skipped (they are
  computed, with the mask inside), or the computed share given instead;
* exactly half — 0.5 is the share of blocked *scores* for large n, not of tiles;
* a percentage — 40 instead of the share 0.4;
* a count, not a share — 10 tiles, not divided by the 25;
* forgot the halving — 5 · 4 = 20 tiles: the tiles off the diagonal are split between both
  sides;
* 128 tiles a side — the tile's 128 rows taken as the number of tiles: 127 / 256;
* skipped over computed — 10 / 15 instead of 10 / 25;
* the diagonal's share — 5 / 25: the tiles the mask cuts through;
* counted the tiles — 25, the number of tiles, not the share skipped;
* six tiles a side — 6 · 5 / 2 = 15 of 36 (640 / 128 rounded up, or counted from 0 to 5);
* two tiles fewer — 6 / 25; tiles a side — 5; ten of 36 — 10 / 36;
* counted the computed tiles — 15;
* rounded too early — a value near 0.4 but outside ±0.001.
"""

from .by_hand import HandExercise, Slip

__all__ = ["SKIPPED_SHARE_BY_HAND", "check_skipped_share"]

_T = 640 // 128  # tiles a side: 5
_ABOVE = _T * (_T - 1) // 2  # tiles strictly above the diagonal: 10

SKIPPED_SHARE_BY_HAND = HandExercise(
    "the share of 128 × 128 tiles a causal mask skips at n = m = 640", _ABOVE / _T**2, slips=[
        Slip("on or below the diagonal", (_ABOVE + _T) / _T**2, "{got} is 15 of the 25 tiles: "
             "the 5 on the diagonal are computed (the mask cuts through them), so only the 10 "
             "strictly above it are skipped."),
        Slip("exactly half", 0.5, "{got} is the share of blocked scores on a large grid; the "
             "tiles on the diagonal are computed whole, so fewer than half the tiles go."),
        Slip("a percentage", 100 * _ABOVE / _T**2, "{got} is a percentage; give the share "
             "as a number between 0 and 1."),
        Slip("a count, not a share", _ABOVE, "{got} counts the skipped tiles; divide by all "
             "25 tiles for the share."),
        Slip("forgot the halving", _T * (_T - 1) / _T**2, "{got} counts 5 · 4 = 20 tiles: "
             "the tiles off the diagonal lie half above it, half below."),
        Slip("128 tiles a side", 127 / 256, "{got} takes 128 tiles a side; a side of 640 "
             "rows holds 640 / 128 = 5 tiles."),
        Slip("skipped over computed", _ABOVE / (_T**2 - _ABOVE), "{got} divides the 10 "
             "skipped tiles by the 15 computed; the share is out of all 25."),
        Slip("the diagonal's share", _T / _T**2, "{got} is the share of the 5 diagonal tiles, "
             "which are computed; the skipped ones lie above them."),
        Slip("counted the tiles", _T**2, "{got} is the number of tiles, 5 × 5; the question "
             "asks for the share skipped: the 10 above the diagonal out of the 25."),
        Slip("six tiles a side", 15 / 36, "{got} is 15 / 36, six tiles a side: 640 / 128 = 5 "
             "exactly, so 5 × 5 = 25 tiles, 10 of them above the diagonal."),
        Slip("two tiles fewer", 6 / 25, "{got} is (5 − 1)(5 − 2)/2 = 6 tiles: above the "
             "diagonal, row r of tiles has 5 − 1 − r of them: 4 + 3 + 2 + 1 = 10."),
        Slip("tiles a side", _T, "{got} is the number of tiles a side, 640 / 128; the question "
             "asks for the share of all 25 tiles that is skipped."),
        Slip("ten of 36", 10 / 36, "{got} is 10 / 36: a side of 640 holds 640 / 128 = 5 tiles, "
             "so 25 tiles in all."),
        Slip("counted the computed tiles", 15, "{got} counts the tiles that are computed (on "
             "and below the diagonal); the question asks for the share SKIPPED, 10 / 25."),
    ], tolerance=0.001)


def check_skipped_share(value):
    """Print feedback on the learner's share of skipped tiles (n = m = 640, tiles of 128)."""
    SKIPPED_SHARE_BY_HAND.check(value)
