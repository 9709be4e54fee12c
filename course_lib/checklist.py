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
             "origin, it has a direction and a length.", 1),
    Question("What does qᵢ mean?",
             "The single number sitting in slot i of the list q (q₁ is the first slot, q₂ the "
             "second, and so on).", 1),
    Question("How do you compute the norm ∥q∥ of a vector?",
             "Square every slot, add the squares, and take the square root: "
             "∥q∥ = √(q₁² + q₂² + … + q_L²), the Pythagorean length of the arrow.", 2),
    Question("Read Σᵢ₌₁ᴸ qᵢkᵢ in words.",
             "For every slot i from 1 to L, multiply the matching slots qᵢ and kᵢ, then add up "
             "all L products.", 3),
    Question("What does the dot product q·k tell you geometrically?",
             "How well the two arrows line up: positive when they point the same way, zero at "
             "a right angle, negative when they point opposite ways. It equals ∥q∥∥k∥cos θ, "
             "where θ is the angle between them.", 4),
    Question("What does ℝʳˣᶜ denote?",
             "The set of all grids (matrices) of real numbers with r rows and c columns.", 5),
    Question("Why must we transpose K before multiplying?",
             "So that each key stands as a column of length d_k: then row i of Q times column "
             "j of Kᵀ is the dot product of query i with key j, and the shapes fit "
             "(n×d_k times d_k×m).", 6),
    Question("What is the shape of S = QKᵀ when Q is n×d_k and K is m×d_k?",
             "n×m: one score for every (query, key) pair. It is square only when n = m, as "
             "when queries and keys come from the same sequence.", 6),
    Question("What does softmax do to a row of scores?",
             "It turns them into weights that are all positive and add up to 1, giving larger "
             "scores much larger shares.", 7),
    Question("Why does softmax use eˣ?",
             "eˣ is positive for every x, so every weight is positive whatever the sign of the "
             "score; it is smooth, so gradients exist; and it grows fast, so a bigger score gets "
             "exponentially more weight.", 7),
    Question("What happens to softmax when all scores are equal?",
             "Every weight becomes 1/m: a perfectly even split over the m keys.", 7),
    Question("Under what assumption does Var(q·k) = d_k hold?",
             "When the slots qᵢ and kᵢ are all independent, each with mean 0 and variance 1. "
             "Then each product qᵢkᵢ has mean 0 and variance 1, and the variances of the d_k "
             "independent products add up to d_k.", 8),
    Question("Why divide the scores by √d_k?",
             "Because Var(q·k) = d_k, the scores' standard deviation is √d_k; dividing by √d_k "
             "brings it back to about 1, so softmax stays in its sensitive range and its "
             "gradients stay healthy instead of saturating.", 8),
    Question("What is the final step that turns the weight grid into the attention output?",
             "Multiply the weight grid A by the value matrix V: output row i is Σⱼ Aᵢⱼvⱼ, a "
             "weighted blend of the value rows.", 9),
)


def questions_for(notebook):
    """The checklist questions taught in one notebook, in the checklist's order.

    >>> [q.question for q in questions_for(2)]
    ['How do you compute the norm ∥q∥ of a vector?']
    """
    return [q for q in CHECKLIST if q.notebook == notebook]
