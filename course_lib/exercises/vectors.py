"""Exercise of notebook 01: turn a sentence into its list of vectors (its embeddings)."""

from .core import Case, Exercise, Mistake

__all__ = ["EMBEDDING_EXERCISE", "check_embed", "evaluate_embed"]

_TABLE = {"the": [0.5, -1.0], "cat": [2.0, 1.5], "sat": [-1.0, 0.5], "on": [0.0, -2.0],
          "mat": [1.5, 2.5]}


def _reference(sentence, table):
    return [table[word] for word in sentence]


EMBEDDING_EXERCISE = Exercise(
    "embed(sentence, table)",
    cases=[
        Case((["cat"], _TABLE)),
        Case((["the", "cat"], _TABLE)),
        Case((["cat", "the"], _TABLE)),
        Case((["mat", "on", "sat"], _TABLE)),
        Case((["the", "cat", "sat", "on", "the", "mat"], _TABLE)),
    ],
    reference=_reference,
    show_args=lambda args: f"{args[0]!r}, table",
    mistakes=[
        Mistake("table order",
                "the vectors come out in the table's order, not the sentence's. Position "
                "matters: 'cat the' and 'the cat' must give their vectors in opposite orders, "
                "so loop over the words of the sentence.",
                imitation=lambda sentence, table: [v for w, v in table.items() if w in sentence]),
        Mistake("dropped repeats",
                "a word that appears twice must give its vector twice: the sentence 'the cat "
                "sat on the mat' has six words, so six vectors (a set or dict drops repeats).",
                imitation=lambda sentence, table: [table[w] for w in dict.fromkeys(sentence)]),
        Mistake("flattened",
                "you joined all the numbers into one long list. Keep one vector (one list) per "
                "word, so the result is a list of lists: [[…], […], …].",
                imitation=lambda sentence, table: [x for w in sentence for x in table[w]]),
    ],
)


def evaluate_embed(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``embed``."""
    return EMBEDDING_EXERCISE.evaluate(func)


def check_embed(func):
    """Print feedback on a learner's ``embed(sentence, table)``."""
    EMBEDDING_EXERCISE.check(func)
