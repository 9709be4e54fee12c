"""By-hand exercises of notebook 08: the variance of four darts, and the variance of scores
divided by d_k instead of √d_k (the c² rule).

Slips
-----
Darts at 1, 2, 3, 6 (answer 3.5):

- forgot the mean: averaged the squares x² themselves, not the squared distances from the mean.
- divided by N − 1: divided the sum of squares by 3 instead of 4.
- gave the spread: took the square root at the end (that is the spread, not the variance).
- forgot to square: averaged the distances |xᵢ − x̄| without squaring them.
- signed distances: averaged the distances xᵢ − x̄ with their signs (they always add up to 0).
- forgot to divide: stopped at the sum of the squared distances.
- gave the mean: stopped after the first step.
- mean divided by 3: x̄ = 12 / 3 = 4 (the sum divided by N − 1), then the right steps (4.5).
- forgot to square the mean: the mean of the squares minus x̄, 12.5 − 3 = 9.5.
- gave the range: the largest dart minus the smallest, 6 − 1 = 5.
- squared a minus sign away wrong: (−2)² taken as −4 and (−1)² as −1, giving 1.
- doubled instead of squared: 3² taken as 6 (3 × 2), giving 11 / 4 = 2.75.
- root of the sum: √14 ≈ 3.74, the root taken and the division forgotten.
- squared the variance: 3.5² = 12.25, a square too many at the end.
- squared the mean distance: (average |xᵢ − x̄|)² = 1.5² = 2.25.
- divided by N²: 14 / 16 = 0.875.
- left out a dart: the variance of 1, 2, 3 alone (2/3).
- divided by N + 1: 14 / 5 = 2.8.
- divided by 2: 14 / 2 = 7.

Scores of variance 16 divided by d_k = 16 (answer 1/16):

- divided the variance by c, not c²: 16 / 16 = 1 (also what ÷ √d_k gives).
- gave the spread: √(1/16) = 1/4.
- no scaling: the raw variance 16.
- multiplied by c²: 16 × 256.
- divided the variance by √d_k: 16 / 4 = 4.
- started from variance 1: 1 / 256, the variance of one product qᵢkᵢ divided by c².

Both also get the framework's generic slips (sign turned round, decimal point moved, rounded
too early).
"""

from .by_hand import HandExercise, Slip

__all__ = ["DART_VARIANCE", "OVER_SHRUNK_VARIANCE", "check_dart_variance",
           "check_over_shrunk_variance"]

DART_VARIANCE = HandExercise(
    "the variance of 1, 2, 3, 6", 3.5, tolerance=0.01, slips=[
        Slip("forgot the mean", 12.5,
             "{got} is the average of the squares 1², 2², 3², 6² themselves. Subtract the "
             "mean x̄ = 3 first: square the distances −2, −1, 0, 3, then average them."),
        Slip("divided by N − 1", 14 / 3,
             "{got} is the sum of squared distances, 14, divided by 3. The course's variance "
             "is the average over all N = 4 darts: divide by 4."),
        Slip("gave the spread", 3.5 ** 0.5,
             "{got} is the square root of the variance, the spread. The variance is the "
             "number before the root."),
        Slip("forgot to square", 1.5,
             "{got} is the average distance |xᵢ − x̄| = (2 + 1 + 0 + 3)/4. The variance "
             "averages the SQUARED distances: 4, 1, 0, 9."),
        Slip("signed distances", 0.0,
             "{got}: the distances from the mean with their signs, −2, −1, 0, 3, always add "
             "up to 0. Square each one before you add them up."),
        Slip("forgot to divide", 14.0,
             "{got} is the sum of the squared distances. The variance is their average: "
             "divide by the number of darts, N = 4."),
        Slip("gave the mean", 3.0,
             "{got} is the mean x̄, the first step. Go on: square each distance from it, "
             "then average the squares."),
        Slip("mean divided by 3", 4.5,
             "{got} comes from the mean 12 / 3 = 4: the mean divides the sum 1 + 2 + 3 + 6 "
             "by all N = 4 darts, x̄ = 3. Then square the distances and average them."),
        Slip("forgot to square the mean", 9.5,
             "{got} is 12.5 − 3, the mean of the squares minus x̄. Either average the squared "
             "distances from x̄, or subtract x̄² = 9: 12.5 − 9."),
        Slip("gave the range", 5.0,
             "{got} is 6 − 1, the range, largest minus smallest. The variance averages the "
             "squared distances from the mean x̄ = 3: (4 + 1 + 0 + 9) / 4."),
        Slip("squared a minus sign away wrong", 1.0,
             "{got} takes (−2)² as −4 and (−1)² as −1: a negative number times itself is "
             "positive, (−2) × (−2) = +4. Every squared distance is ≥ 0."),
        Slip("divided by N − 1", 4.7, "{got} is 14 / 3 rounded: divide the sum of squared "
             "distances, 14, by all N = 4 darts (and keep the decimals until the end)."),
        Slip("gave the spread", 1.9, "{got} is the spread √3.5 ≈ 1.87 (rounded): the variance "
             "is the number before the root."),
        Slip("root of the sum", 14 ** 0.5, "{got} is √14: the sum of squared distances is "
             "divided by N = 4, not rooted. The variance has no square root."),
        Slip("squared the variance", 12.25, "{got} is 3.5²: the distances are squared once, "
             "then averaged; nothing is squared at the end."),
        Slip("squared the mean distance", 2.25, "{got} is 1.5², the average distance squared: "
             "square each distance FIRST (4, 1, 0, 9), then average."),
        Slip("divided by N²", 0.875, "{got} is 14 / 16: divide the sum of squared distances "
             "by N = 4 once, not by N² = 16."),
        Slip("left out a dart", 2 / 3, "{got} is the variance of 1, 2, 3: the dart at 6 counts "
             "too (mean (1 + 2 + 3 + 6) / 4 = 3)."),
        Slip("divided by N + 1", 2.8, "{got} is 14 / 5: there are N = 4 darts; divide the "
             "sum of squared distances by 4."),
        Slip("divided by 2", 7.0, "{got} is 14 / 2: divide the sum of squared distances by "
             "the number of darts, N = 4."),
        Slip("doubled instead of squared", 2.75,
             "{got} takes 3² as 6: a square is the number times ITSELF, 3 × 3 = 9, not 3 × 2. "
             "The squared distances are 4, 1, 0, 9."),
    ])

OVER_SHRUNK_VARIANCE = HandExercise(
    "Var(q·k / 16)", 1 / 16, tolerance=0.001,
    slips=[
        Slip("divided the variance by c, not c²", 1.0,
             "{got} is 16 / 16: you divided the variance by c = 16 once (1 is also what "
             "÷ √d_k gives). Dividing every score by c divides the variance by c² = 256."),
        Slip("gave the spread", 0.25,
             "{got} is the spread, the square root of the variance. Give the variance: the "
             "number before the root."),
        Slip("no scaling", 16.0,
             "{got} is the variance of the raw scores. Now divide every score by 16: the "
             "variance is divided by 16² = 256."),
        Slip("multiplied by c²", 16.0 * 256,
             "{got}: you multiplied by c² = 256. Dividing the scores by c divides the "
             "variance by c²: 16 / 256."),
        Slip("divided the variance by √d_k", 4.0,
             "{got} is 16 / 4: you divided the variance by √16. The scores are divided by "
             "c = 16, so the variance is divided by c² = 256."),
        Slip("started from variance 1", 1 / 256,
             "{got} is 1 / 256: you started from variance 1, the variance of ONE product "
             "qᵢkᵢ. The raw score q·k adds d_k = 16 of them: its variance is 16."),
    ])


def check_dart_variance(value):
    """Print feedback on the variance of the darts 1, 2, 3, 6, worked out by hand."""
    DART_VARIANCE.check(value)


def check_over_shrunk_variance(value):
    """Print feedback on the variance of scores (variance 16) divided by d_k = 16."""
    OVER_SHRUNK_VARIANCE.check(value)
