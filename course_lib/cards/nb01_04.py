"""Extra self-test cards of notebooks 01–04 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = (
    # 01 · Vectors
    Card("$q = [7, -2, 5]$. What is $q_2$, and at which Python position does it sit?",
         "$q_2 = -2$, the second number. Python counts positions from 0, so it is `q[1]`.",
         1, computes=True),
    Card("Are $[2, 5]$ and $[5, 2]$ the same vector? Where does each arrow end?",
         "No: position matters. $[2, 5]$ ends 2 steps right and 5 up; $[5, 2]$ ends 5 right "
         "and 2 up.", 1, computes=True),
    Card("Why does the sentence *the cat sat on the mat* give six vectors, not five?",
         "Each word of the sentence is looked up in order, and *the* appears twice: its "
         "vector appears twice, at positions 1 and 5 of the sentence.", 1),
    # 02 · Norm
    Card("What is $\\lVert [-4, 4, 2] \\rVert$?",
         "$\\sqrt{16 + 16 + 4} = \\sqrt{36} = 6$. The minus sign disappears when squared.",
         2, computes=True),
    Card("$q = [3, 4]$. What is the unit vector $q / \\lVert q \\rVert$, and how long is it?",
         "$\\lVert q \\rVert = 5$, so the unit vector is $[0.6, 0.8]$: the same direction, "
         "length $\\sqrt{0.36 + 0.64} = 1$.", 2, computes=True),
    Card("In the Pythagoras picture of $q = [q_1, q_2]$, which three squares are drawn, and how "
         "are their areas related?",
         "The squares on the two short sides, of areas $q_1^2$ and $q_2^2$, and the square on "
         "the long side (the arrow), of area $\\lVert q \\rVert^2$. The two small areas add "
         "up to the big one.", 2),
    # 03 · Summation
    Card("$q = [2, 7, 1, 8]$. What is $\\sum\\limits_{i=2}^{3} q_i$?",
         "$q_2 + q_3 = 7 + 1 = 8$: both ends are included.", 3, computes=True),
    Card("Write $\\sum\\limits_{i=1}^{3} q_i^2$ for $q = [1, -1, 2]$ out term by term and "
         "compute it.",
         "$q_1^2 + q_2^2 + q_3^2 = 1 + 1 + 4 = 6$ (and $\\sqrt{6}$ is $\\lVert q \\rVert$).",
         3, computes=True),
    Card("A Python loop adds slots $a$ to $b$ of $q$, counted from 1 as in the maths. Which "
         "range and which index does it use?",
         "`for i in range(a, b + 1)` (a range stops before its end) and `q[i - 1]` (Python "
         "counts positions from 0).", 3),
    # 04 · Dot product
    Card("What is $[2, -1, 0] \\cdot [3, 4, 5]$? Which way do the two arrows point relative "
         "to each other?",
         "$2 \\times 3 + (-1) \\times 4 + 0 \\times 5 = 6 - 4 + 0 = 2$: positive, so they "
         "lean the same way (an angle below 90°).", 4, computes=True),
    Card("Two arrows have lengths 2 and 3 and meet at 90°. What is their dot product? And at "
         "0°?",
         "At 90°, $\\cos\\theta = 0$, so $q \\cdot k = 0$. At 0°, $\\cos\\theta = 1$, so "
         "$q \\cdot k = 2 \\times 3 = 6$.", 4, computes=True),
    Card("You double the length of $q$ and keep its direction. What happens to $q \\cdot k$, "
         "and to "
         "$\\cos\\theta$?",
         "$q \\cdot k$ doubles (every slot of $q$ doubles); $\\cos\\theta$ stays the same, "
         "because the angle has not changed. The raw score grows with length.", 4),
)
