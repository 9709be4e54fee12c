"""Self-test cards of notebook 00_python, "The Python you need" (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    Card("`q = [4, 7, 1, 9]`. What are `q[0]`, `q[1]` and `q[-1]`?",
         "4, 7 and 9: positions count from 0, and −1 is the last position.", 0, computes=True),
    Card("Which numbers does `range(2, 6)` give?",
         "2, 3, 4 and 5: a range starts at its first number and stops before its second.", 0,
         computes=True),
    Card("Inside a function, what is the difference between `print(x)` and `return x`?",
         "`print` shows x on the screen; `return` hands x back to the code that called the "
         "function, which can use it. A function that never reaches a `return` gives back "
         "None.", 0),
    Card("What do `[1, 2] * 2` and `np.array([1, 2]) * 2` give?",
         "`[1, 2, 1, 2]`: a list repeats. `[2, 4]`: an array multiplies every number.", 0,
         computes=True),
    Card("`A = np.array([[1, 2], [3, 4]])`. What are `A[1, 0]`, `A.sum(axis=0)` and "
         "`A.sum(axis=1)`?",
         "`A[1, 0]` is 3 (row 1, column 0); `A.sum(axis=0)` is [4, 6] (down each column); "
         "`A.sum(axis=1)` is [3, 7] (along each row).", 0, computes=True),
    Card("Why is `3 ^ 2` not 9 in Python, and how do you write 3 squared?",
         "`^` is not a power: it combines the bits of two whole numbers, and 3 ^ 2 is 1. "
         "3 squared is `3 ** 2`.", 0),
)
