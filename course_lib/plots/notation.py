"""Writing maths as plain Unicode text (q₁, Σ, ∥q∥), for plot labels, dashboard readouts
and quiz cards: it renders the same in a figure, a widget, an HTML page and offline.
"""

__all__ = ["bracketed", "fmt", "subscript", "superscript", "written_sum"]

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


def fmt(x, digits=2):
    """A number with a fixed number of decimals and a true minus sign (−), never '-0.00'.

    >>> fmt(-1.5), fmt(2, 1), fmt(-0.0001)
    ('−1.50', '2.0', '0.00')
    """
    text = f"{float(x):.{digits}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text.replace("-", "−")


def bracketed(x, digits=2):
    """:func:`fmt`, with a negative number in brackets so that '(−3.0)²' reads right.

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
