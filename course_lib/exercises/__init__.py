"""Exercises whose feedback names the slip, behind one entry point, ``check(name, answer)``
(CONTRIBUTING.md). Each table module lists its ``EXERCISES``; the registry finds them."""

import difflib
import importlib
import pkgutil

from .engine import Case, CodeExercise
from .feedback import FAILED, MISTAKE, Feedback, Slip
from .hand import HandExercise

__all__ = ["Case", "CodeExercise", "Feedback", "HandExercise", "Slip", "check", "evaluate",
           "exercise", "names"]

_FRAMEWORK = {"engine", "feedback", "hand", "relations"}
_REGISTRY = {}


def _registry():
    """{name: exercise} over every table module of the package (imported on first use)."""
    if not _REGISTRY:
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_") or info.name in _FRAMEWORK:
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            for ex in getattr(module, "EXERCISES", ()):
                if ex.name in _REGISTRY:
                    raise ValueError(f"two exercises are called {ex.name!r}")
                _REGISTRY[ex.name] = ex
    return _REGISTRY


def names():
    """The names of every exercise, for ``check(name, …)``."""
    return sorted(_registry())


def exercise(name):
    """The exercise called ``name``; a clear error, with the nearest names, for a typo."""
    registry = _registry()
    if name not in registry:
        near = difflib.get_close_matches(str(name), registry, n=3)
        hint = f" Did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        raise KeyError(f"there is no exercise called {name!r}.{hint}")
    return registry[name]


def evaluate(name, answer):
    """The :class:`Feedback` on ``answer`` (a function or a number) for exercise ``name``."""
    try:
        ex = exercise(name)
    except KeyError as exc:
        return Feedback(FAILED, f"Not yet: {exc.args[0]} Copy the name from the cell above.")
    feedback = ex.evaluate(answer)
    if feedback.passed and isinstance(ex, HandExercise) and isinstance(answer, str):
        return Feedback(MISTAKE, f"Not yet: {answer!r}, in quotes, is a string: the right "
                        "value, but type it without the quotes.", mistake="text in quotes")
    return feedback


def check(name, answer, *, solution=False):
    """Print the feedback on ``answer``; ``solution=True`` shows no number, only "passes"."""
    feedback = evaluate(name, answer)
    if solution:
        print("The worked solution passes." if feedback.passed
              else f"The worked solution does NOT pass: {feedback}")
    else:
        print(feedback)
