"""Exercise of notebook 06: the shape rule of the matrix product,
(r × c) · (c × p) → (r × p), and no product when the inner sizes differ.

Slips
-----

- inner sizes returned: (c, c) or (a[1], b[0]) instead of the outer sizes;
- outer sizes swapped: (p, r) instead of (r, p);
- kept the inner size: a 3-number shape (r, c, p);
- returned one of the shapes: shape_a or shape_b as it is;
- joined the shapes: ``shape_a + shape_b``, a 4-number tuple;
- returned the number of cells: r·p instead of the shape (r, p);
- no check of the inner sizes: a shape for a product that does not exist;
- checked the wrong pair of sizes: refuses good products, or lets bad ones through;
- wrong kind of error: the bad product refused, but not with ValueError.
"""

from .core import Case, Exercise, Mistake

__all__ = ["PRODUCT_SHAPE_EXERCISE", "check_product_shape", "evaluate_product_shape"]


_GOOD = [((2, 3), (3, 4)), ((3, 2), (2, 5)), ((1, 4), (4, 1)), ((4, 4), (4, 2)), ((2, 5), (5, 2))]
_BAD = [((2, 3), (2, 3)), ((3, 4), (2, 3)), ((2, 3), (4, 2))]  # the last: outer sizes match


def _shape_rule(shape_a, shape_b):
    (r, c), (c2, p) = shape_a, shape_b
    if c != c2:
        raise ValueError(f"inner sizes {c} and {c2} differ")
    return (r, p)


def _good(outcomes):
    return [o for o in outcomes if o.case.raises is None]


def _bad(outcomes):
    return [o for o in outcomes if o.case.raises is not None]


def _no_check(outcomes):
    if all(o.correct for o in _good(outcomes)):
        return next((o for o in _bad(outcomes) if o.error is None), None)
    return None


def _wrong_pair(outcomes):
    """Refuses a product that exists, or lets through one that does not, with its shapes
    right otherwise: the check compares the wrong two sizes."""
    refused_good = next((o for o in _good(outcomes) if isinstance(o.error, ValueError)), None)
    values_right = all(o.correct or isinstance(o.error, ValueError) for o in _good(outcomes))
    if refused_good is not None and values_right:
        return refused_good
    return None


def _wrong_error(outcomes):
    if all(o.correct for o in _good(outcomes)) and all(o.error for o in _bad(outcomes)):
        return next((o for o in _bad(outcomes) if not o.correct), None)
    return None


PRODUCT_SHAPE_EXERCISE = Exercise(
    "product_shape(shape_a, shape_b)",
    cases=[Case(args) for args in _GOOD] + [Case(args, raises=ValueError) for args in _BAD],
    reference=_shape_rule,
    mistakes=[
        Mistake("inner sizes returned",
                "{call} gave {got}: those are the INNER sizes, the ones that must match and "
                "then disappear. The result keeps the outer ones: (rows of A, columns of B), "
                "here {expected}.",
                detect=lambda outcomes: _shape_first(outcomes, lambda a, b: (a[1], b[0]))),
        Mistake("outer sizes swapped",
                "{call} gave {got}: the right sizes in the wrong order. Rows come from A, "
                "columns from B: (shape_a[0], shape_b[1]) = {expected}.",
                detect=lambda outcomes: _shape_first(outcomes, lambda a, b: (b[1], a[0]))),
        Mistake("kept the inner size",
                "{call} gave {got}: the inner size is used up by the dot products (each "
                "cell adds c products). The result has two sizes: {expected}.",
                detect=lambda outcomes: _shape_first(outcomes, lambda a, b: (a[0], a[1], b[1]))),
        Mistake("returned one of the shapes",
                "{call} gave {got}, the shape of one of the two grids. The product has the "
                "ROWS of A and the COLUMNS of B: {expected}.",
                detect=lambda outcomes: _shape_first(outcomes, lambda a, b: tuple(a))
                or _shape_first(outcomes, lambda a, b: tuple(b))),
        Mistake("joined the shapes",
                "{call} gave {got}: `shape_a + shape_b` glues the two tuples together. The "
                "product's shape is (rows of A, columns of B): (shape_a[0], shape_b[1]).",
                detect=lambda outcomes: _shape_first(outcomes, lambda a, b: tuple(a) + tuple(b))),
        Mistake("returned the number of cells",
                "{call} gave {got}, how many cells the result has. Return its shape, the "
                "pair (rows, columns): {expected}.",
                detect=lambda outcomes: _shape_first(outcomes, lambda a, b: a[0] * b[1])),
        Mistake("checked the wrong pair of sizes",
                "{call} raised ValueError, but that product exists ({expected}). Compare the "
                "INNER sizes, shape_a[1] and shape_b[0]: the columns of A with the rows of B.",
                detect=_wrong_pair),
        Mistake("no check of the inner sizes",
                "{call} gave {got}, but that product does not exist: a row of A and a column "
                "of B must have the same length. Raise ValueError when shape_a[1] != "
                "shape_b[0].",
                detect=_no_check),
        Mistake("wrong kind of error",
                "{call} refused the product, which is right, but not with ValueError: write "
                "`raise ValueError(\"...\")` (an assert raises AssertionError).",
                detect=_wrong_error),
    ],
)


def _shape_first(outcomes, imitation):
    found = Mistake("", "", imitation=imitation).telling_outcome(PRODUCT_SHAPE_EXERCISE, outcomes)
    return found


def evaluate_product_shape(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``product_shape``."""
    return PRODUCT_SHAPE_EXERCISE.evaluate(func)


def check_product_shape(func):
    """Print feedback on a learner's ``product_shape(shape_a, shape_b)``."""
    PRODUCT_SHAPE_EXERCISE.check(func)
