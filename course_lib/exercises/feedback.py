"""The verdict on one attempt, and the sentence for a wrong answer no slip explains."""

from dataclasses import dataclass, field

from .cases import Case, show

__all__ = ["FAILED", "MISTAKE", "NOT_ATTEMPTED", "PASSED", "Feedback", "describe_failure"]

PASSED, NOT_ATTEMPTED, MISTAKE, FAILED = "passed", "not attempted", "mistake", "failed"


@dataclass
class Feedback:
    """The verdict on one attempt; ``str(feedback)`` is the paragraph the learner reads."""

    status: str
    message: str
    mistake: str | None = None
    case: Case | None = None
    outcomes: list = field(default_factory=list, repr=False)

    @property
    def passed(self):
        return self.status == PASSED

    def __str__(self):
        return self.message


def describe_failure(outcome, call):
    """The message for a wrong answer no slip explains: the failing call and the answer."""
    case = outcome.case
    if case.raises is not None:
        got = (f"returned {show(outcome.value)}" if outcome.error is None
               else f"raised {type(outcome.error).__name__}")
        return (f"Not yet: {call} {got}, but it should raise {case.raises.__name__} "
                "with a message that says what is wrong with the input.")
    if outcome.error is not None:
        return (f"Not yet: {call} raised {type(outcome.error).__name__}: "
                f"{show(str(outcome.error))}. The answer should be {show(case.expected)}.")
    return (f"Not yet: the smallest case where it goes wrong is {call}, which returned "
            f"{show(outcome.value)}; the answer is {show(case.expected)}.")
