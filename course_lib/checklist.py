"""The equipment checklist: every self-test question of the course, in the source's order,
with its answer in the course's own words and the notebook that teaches it.

The source notes lost their square roots in extraction; the answers here say √d_k where the
maths needs it, and state the assumption behind Var(q·k) = d_k in full.
"""

from dataclasses import dataclass

__all__ = ["CHECKLIST", "Question", "questions_for"]


@dataclass(frozen=True)
class Question:
    """One checklist card: the question, its answer, and the notebook (1–9) that teaches it."""

    question: str
    answer: str
    notebook: int


CHECKLIST = (
    Question("What is a vector, in plain words?",
             "An ordered list of numbers, where position matters. Drawn as an arrow from the "
             "origin, it has a length and, unless every slot is 0, a direction.", 1),
    Question("What does $q_i$ mean?",
             "The single number sitting in slot $i$ of the list $q$ ($q_1$ is the first slot, "
             "$q_2$ the second, and so on).", 1),
    Question(r"How do you compute the norm $\lVert q \rVert$ of a vector?",
             "Square every slot, add the squares, and take the square root: "
             r"$\lVert q \rVert = \sqrt{q_1^2 + q_2^2 + \dots + q_L^2}$, the Pythagorean "
             "length of the arrow.", 2),
    Question(r"Read $\sum_{i=1}^{L} q_i k_i$ in words.",
             "For every slot $i$ from 1 to $L$, multiply the matching slots $q_i$ and $k_i$, "
             "then add up all $L$ products.", 3),
    Question(r"What does the dot product $q \cdot k$ tell you geometrically?",
             "How well the two arrows line up: positive when they point the same way, zero at "
             "a right angle, negative when they point opposite ways. It equals "
             r"$\lVert q \rVert \lVert k \rVert \cos\theta$, where $\theta$ is the angle "
             "between them.", 4),
    Question(r"What does $\mathbb{R}^{r \times c}$ denote?",
             "The set of all grids (matrices) of real numbers with $r$ rows and $c$ columns.",
             5),
    Question("Why must we transpose $K$ before multiplying?",
             "So that each key stands as a column of $d_k$ slots: then row $i$ of $Q$ times "
             r"column $j$ of $K^\top$ is the dot product of query $\mathbf{q}_i$ with key "
             r"$\mathbf{k}_j$, and the shapes fit ($n \times d_k$ times $d_k \times m$).", 6),
    Question(r"What is the shape of $S = QK^\top$ when $Q$ is $n \times d_k$ and $K$ is "
             r"$m \times d_k$?",
             r"$n \times m$: one score for every (query, key) pair. It is square only when "
             "$n = m$, as in self-attention over a whole sentence (not while a model writes: one "
             "new query against all the keys so far is $1 \\times m$).", 6),
    Question("What does softmax do to a row of scores?",
             "It turns them into weights that are all positive and add up to 1, giving larger "
             "scores much larger shares.", 7),
    Question("Why does softmax use $e^x$?",
             "$e^x$ is positive for every $x$, so every weight is positive whatever the sign of "
             "the score; it is smooth, so gradients exist; and it grows fast, so a bigger score "
             "gets exponentially more weight.", 7),
    Question("What happens to softmax when all scores are equal?",
             "Every weight becomes $1/m$: a perfectly even split over the $m$ keys.", 7),
    Question(r"Under what assumption does $\operatorname{Var}(q \cdot k) = d_k$ hold?",
             "When the slots $q_i$ and $k_i$ are all independent, each with mean 0 and variance "
             "1. Then each product $q_i k_i$ has mean 0 and variance 1, and the variances of "
             "the $d_k$ independent products add up to $d_k$.", 8),
    Question(r"Why divide the scores by $\sqrt{d_k}$?",
             r"Because $\operatorname{Var}(q \cdot k) = d_k$, the scores' standard deviation is "
             r"$\sqrt{d_k}$; dividing by $\sqrt{d_k}$ brings it back to about 1, so softmax "
             "stays in its sensitive range and its gradients stay healthy instead of "
             "saturating.", 8),
    Question("What is the final step that turns the weight grid into the attention output?",
             "Multiply the weight grid $A$ by the value matrix $V$: output row $i$ is "
             r"$\sum_j A_{ij} \mathbf{v}_j$, a weighted blend of the value rows "
             r"$\mathbf{v}_j$.", 9),
)


def questions_for(notebook):
    r"""The checklist questions taught in one notebook, in the checklist's order.

    >>> print(*(q.question for q in questions_for(2)))
    How do you compute the norm $\lVert q \rVert$ of a vector?
    """
    return [q for q in CHECKLIST if q.notebook == notebook]
