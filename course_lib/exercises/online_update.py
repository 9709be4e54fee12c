"""By-hand exercise of notebook 14: one update of the online softmax's running sum,
l′ = l · e^(M − M′) + Σ e^(s − M′), for M = 2, l = 1.5 and a new block of scores 3 and 1.

Slips (each a wrong value the checker names, with the step that went wrong):

* upside down — l · e^(M′ − M);
* no rescale — l added as it was;
* rescaled the new block — e^(M − M′) on the new terms;
* old max for the new terms — e^(s − M) instead of e^(s − M′);
* old max, no rescale — both slips at once;
* left out e^0 — the block's largest score gives e^0 = 1, not 0;
* added the factor — l + e^(M − M′) instead of l · e^(M − M′);
* forgot the exponential — the new terms s − M′ added without e^.
* dropped the old sum — l′ = Σ e^(s − M′), the new block alone;
* exponent sign flipped — e^(M′ − s) instead of e^(s − M′) for the new terms;
* minus sign outside the power — e^−2 taken as −e²;
* left out the last new term; multiplied instead of added; no shift for the new terms;
  e^−1 taken as −e; rescaled everything — the new terms multiplied by e^(M − M′) too.
"""

import math

from .by_hand import HandExercise, Slip

__all__ = ["UPDATE_BY_HAND", "check_update_by_hand"]

_E = math.exp
UPDATE_BY_HAND = HandExercise("the new running sum l′", 1.5 * _E(-1) + 1 + _E(-2), slips=[
    Slip("upside down", 1.5 * _E(1) + 1 + _E(-2), "{got} is l · e^(M′ − M) + …: the factor is "
         "e^(M − M′) = e^(2 − 3) = e^−1, old max minus new, at most 1."),
    Slip("no rescale", 1.5 + 1 + _E(-2), "{got} keeps l = 1.5 as it was; its terms were "
         "written with M = 2, so multiply it by e^(M − M′) = e^−1 first."),
    Slip("rescaled the new block", 1.5 + _E(-1) * (1 + _E(-2)), "{got} puts e^(M − M′) on the "
         "new terms. It belongs to the old sum l = 1.5; the new terms e^(s − M′) already use "
         "M′ = 3."),
    Slip("old max for the new terms", 1.5 * _E(-1) + _E(1) + _E(-1), "{got} uses e^(s − M) "
         "with the old max 2 for the new scores: use the new max, e^(3 − 3) + e^(1 − 3)."),
    Slip("old max, no rescale", 1.5 + _E(1) + _E(-1), "{got} neither rescales l nor uses the "
         "new max: l′ = l · e^(M − M′) + e^(3 − M′) + e^(1 − M′), with M′ = 3."),
    Slip("left out e^0", 1.5 * _E(-1) + _E(-2), "{got} leaves out the term of the score 3: "
         "e^(3 − 3) = e^0 = 1, not 0."),
    Slip("added the factor", 1.5 + _E(-1) + 1 + _E(-2), "{got} adds e^(M − M′) to l; multiply: "
         "l · e^(M − M′)."),
    Slip("forgot the exponential", 1.5 * _E(-1) + (3 - 3) + (1 - 3), "{got} adds s − M′ for "
         "the new scores; each term is e^(s − M′)."),
    Slip("dropped the old sum", 1 + _E(-2), "{got} is the new block's terms alone: the old "
         "sum l = 1.5 stays in, rescaled: l · e^(M − M′) + Σ e^(s − M′)."),
    Slip("exponent sign flipped", 1.5 * _E(-1) + 1 + _E(2), "{got} uses e^(M′ − s) = e² for "
         "the score 1; each term is e^(s − M′) = e^(1 − 3) = e^−2, at most 1."),
    Slip("minus sign outside the power", 1.5 * _E(-1) + 1 - _E(2), "{got} takes e^−2 as −e²: "
         "e^−2 = 1 / e² ≈ 0.135, a positive number (every e^x is positive)."),
    Slip("left out the last new term", 1.5 * _E(-1) + 1, "{got} leaves out the score 1's term "
         "e^(1 − 3) = e^−2: add one term per new score."),
    Slip("multiplied instead of added", 1.5 * _E(-1) * (1 + _E(-2)), "{got} multiplies the "
         "rescaled old sum by the new terms; ADD them: l · e^(M − M′) + Σ e^(s − M′)."),
    Slip("no shift for the new terms", 1.5 * _E(-1) + _E(3) + _E(1), "{got} adds e³ and e¹: "
         "the new terms are shifted by the new max too, e^(s − M′) = e⁰ and e^−2."),
    Slip("e^−1 taken as −e", -1.5 * _E(1) + 1 + _E(-2), "{got} takes e^−1 as −e; e^−1 = 1/e "
         "≈ 0.368, positive."),
    Slip("rescaled everything", (1.5 + 1 + _E(-2)) * _E(-1), "{got} multiplies the new "
         "terms by e^(M − M′) too; only the old sum l needs it."),
], tolerance=0.005)


def check_update_by_hand(value):
    """Print feedback on the learner's l′ for M = 2, l = 1.5 and a new block of scores 3, 1."""
    UPDATE_BY_HAND.check(value)
