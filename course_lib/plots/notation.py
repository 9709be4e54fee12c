"""Writing maths as plain Unicode text (q₁, Σ, ∥q∥), for plot labels, dashboard readouts
and quiz cards: it renders the same in a figure, a widget, an HTML page and offline.
"""

from ..text import fmt

__all__ = ["bracketed", "row_label", "row_labels", "row_words", "subscript", "superscript",
           "written_sum"]

_SUB = str.maketrans("0123456789+-=()ijkmnL", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ᵢⱼₖₘₙₗ")
_SUP = str.maketrans("0123456789+-=()ijkmnL", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱʲᵏᵐⁿᴸ")


def subscript(text):
    """``subscript(12)`` → '₁₂': digits (and i, j, k, m, n, L) as subscripts.

    >>> "q" + subscript(3)
    'q₃'
    """
    return str(text).translate(_SUB)


def superscript(text):
    """``superscript(2)`` → '²'.

    >>> "q" + superscript(2)
    'q²'
    """
    return str(text).translate(_SUP)


def bracketed(x, digits=2):
    """``fmt`` (``course_lib.text``), with a negative number in brackets so that '(−3.0)²'
    reads right.

    >>> bracketed(-3, 1), bracketed(4, 1)
    ('(−3.0)', '4.0')
    """
    text = fmt(x, digits)
    return f"({text})" if text.startswith("−") else text


def written_sum(values, digits=2):
    """The terms joined by plus signs, negative ones in brackets: '1.00 + (−2.00) + 0.50'.

    >>> written_sum([1, -2, 0.5])
    '1.00 + (−2.00) + 0.50'
    """
    return " + ".join(bracketed(v, digits) for v in values)


def row_label(letter, i):
    """The label of row i (counted from 1) of a matrix, bold as in the papers: ``𝐪ᵢ``, written
    in matplotlib's mathtext so that figures show it bold (the plain qᵢ is a number).

    >>> print(row_label("q", 2))
    $\\mathbf{q}_{2}$
    """
    return f"$\\mathbf{{{letter}}}_{{{i}}}$"


def row_labels(letter, count):
    """Labels of rows 1 … count: ``[row_label(letter, 1), …]``, for tick labels.

    >>> len(row_labels("k", 3))
    3
    """
    return [row_label(letter, i + 1) for i in range(count)]


def row_words(letter, i):
    """Row i of a matrix in words, for readouts where bold is unavailable: "row q₂ of Q".

    >>> row_words("k", 3)
    'row k₃ of K'
    """
    return f"row {letter}{subscript(i)} of {letter.upper()}"
