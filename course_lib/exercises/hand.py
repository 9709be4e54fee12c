"""The checker of every by-hand exercise: answer and slips are formulas of the givens."""

import math

import numpy as np

from . import relations
from ._values import WRONG_COUNT, as_numbers, show
from .feedback import (
    FAILED,
    MISTAKE,
    NOT_ATTEMPTED,
    PASSED,
    Feedback,
    capital,
    fill,
    pick,
    slip_rows,
)

__all__ = ["CLOSE", "HandExercise", "ROUNDED", "one_off"]

ROUNDED, CLOSE = "rounded too early", "close but off"


def one_off(answer):
    """A twin: the answer ± 1, a slip of 1."""
    return ("a step 1 off", "Redo each step's arithmetic.",
            (lambda **g: answer(**g) + 1, lambda **g: answer(**g) - 1))


class HandExercise:
    """A number (or tuple) worked out from ``givens`` (CONTRIBUTING.md); ``twins``: rows that may
    give another's number (both named)."""

    def __init__(self, name, prompt, answer, givens, slips=(), *, draw=None, tolerance=0.01,
                 base=None, twins=()):
        self.name, self.prompt, self.formula = name, prompt, answer
        self.givens, self.slips, self.draw = dict(givens), slip_rows(slips), draw
        self.twins, self.tolerance, self.base = slip_rows(twins), float(tolerance), base
        self.answer = np.asarray(answer(**self.givens), dtype=float)
        if problem := self._clash():
            raise ValueError(f"{name}: {problem}")

    @property
    def title(self):
        return fill(self.prompt, self._texts())

    def slip_values(self, twins=False):
        """(slip, its value) for every form computable on these givens."""
        found = []
        for slip in self.slips + (self.twins if twins else []):
            for form in slip.forms():
                try:
                    value = np.asarray(form(**self.givens), dtype=float)
                except Exception:
                    continue
                if value.shape == self.answer.shape and np.all(np.isfinite(value)):
                    found.append((slip, value))
        return found

    def _clash(self):
        """Why these givens are unfit (a slip too near the answer or another), or None."""
        if not np.all(np.isfinite(self.answer)):
            return f"the answer {self.answer} is not finite"
        values = self.slip_values()
        for slip, value in self.slip_values(twins=True):
            if _close(value, self.answer, 2 * self.tolerance):
                return f"slip {slip.name!r} gives {show(value)}, too close to the answer"
        for i, (slip, value) in enumerate(values):
            for other, other_value in values[:i]:
                apart = 2 * max(self._near(value), self._near(other_value))
                if other.name != slip.name and _close(value, other_value, apart):
                    return f"slips {other.name!r} and {slip.name!r} both give {show(value)}"
        return None

    def variant(self, seed):
        """The exercise with fresh givens drawn from ``seed`` (unfit ones drawn again)."""
        if self.draw is None:
            raise ValueError(f"{self.name} has no variants (no draw function)")
        rng = np.random.default_rng(seed)
        for _ in range(200):
            try:
                return HandExercise(self.name, self.prompt, self.formula, self.draw(rng),
                                    self.slips, draw=self.draw, tolerance=self.tolerance,
                                    base=self.base or self, twins=self.twins)
            except (ValueError, ArithmeticError):
                continue
        raise RuntimeError(f"{self.name}: no fit variant in 200 draws from seed {seed}")

    def evaluate(self, value):
        """The :class:`Feedback` on what the learner typed; never raises."""
        try:
            return self._evaluate(value)
        except Exception:
            return Feedback(FAILED, f"Not yet: {show(value)} is not a number, like 1.25.")

    def _evaluate(self, value):
        if value is None or value is Ellipsis:
            what = "number" if self.answer.shape == () else "numbers"
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: replace the `...` with the "
                            f"{what} you worked out for {self.title}, then run the cell again.")
        got, problem = as_numbers(value, self.answer.shape)
        if problem:  # too many or too few numbers read: named
            return Feedback(FAILED if got is None else MISTAKE, f"Not yet: {problem}",
                            mistake=None if got is None else WRONG_COUNT)
        shown, answer = self._echo(got), self._shown(self.answer)
        if _close(got, self.answer, self.tolerance):
            exact = _close(got, self.answer, 1e-9 + 1e-9 * _top(self.answer))
            tail = "" if exact else (f"; your {shown} is within the ±{self.tolerance:g} this "
                                     "exercise allows")
            return Feedback(PASSED, f"Correct: {self.title} = {answer}{tail}.")
        chosen = pick(self._explanations(got))
        what = self.title if len(self.title) <= 70 else "the answer"  # long givens: said once
        lead = f"Not yet: {shown} is not {what}. "
        if chosen:  # a number may match a slip by chance: asked, never stated
            hints = " ".join(f"{capital(c[2])}? {capital(fill(c[3], self._texts(got=shown)))}"
                             for c in chosen)
            return Feedback(MISTAKE, lead + hints, mistake=" / ".join(c[2] for c in chosen))
        whole = bool(np.all(self.answer == np.round(self.answer)) and np.all(got == np.round(got)))
        if not whole and _cut_short(got, self.answer):
            places = next(d for d in range(12) if _close(np.round(self.answer, d), self.answer,
                                                         self.tolerance / 2))
            return Feedback(MISTAKE, lead + f"It is the answer with too few decimals: give "
                            f"{places}.", mistake=ROUNDED)
        if not whole and _top(got - self.answer) <= min(10 * self.tolerance,
                                                        0.05 * _top(self.answer)):
            return Feedback(MISTAKE, lead + f"It is close, but not within ±{self.tolerance:g}: "
                            "redo each step's arithmetic, keeping every digit.", mistake=CLOSE)
        return Feedback(FAILED, lead + "Go through it again, writing down each number in between.")

    def _near(self, value):
        """Half the tolerance, scaled up for a slip far above the answer; at most a twentieth of
        the slip's largest entry (0.0884 does not have the digits of 0.1131)."""
        top = _top(value)
        near = self.tolerance / 2 * max(1.0, top / max(_top(self.answer), self.tolerance))
        return min(near, top / 20) if top > 0 else near

    def _lands(self, got, value):
        """``got`` is ``value``, or ``value`` rounded to the decimals the tolerance allows."""
        places = max(0, math.ceil(-math.log10(2 * self.tolerance)))
        return _close(got, value, self._near(value)) or _close(got, np.round(value, places), 0)

    def _explanations(self, got):
        """(1, tier, name, hint) of each slip and relation ``got`` lands on."""
        values = self.slip_values(twins=True)
        found = [(1, 0, slip.name, slip.hint(**self.givens) if callable(slip.hint) else slip.hint)
                 for slip, value in values if self._lands(got, value)]
        own = [value for _, value in values]
        for name, value, hint in self._kinds() + relations.for_numbers(self.answer, self.tolerance):
            near = self._near(value)
            if not any(_close(value, v, near) for v in own):
                own.append(value)  # a general kind before the relation that gives its value
                if self._lands(got, value):
                    found.append((1, 1, name, hint))
        if self.base is not None and _close(got, self.base.answer, self.tolerance / 2) \
                and not _close(self.base.answer, self.answer, 2 * self.tolerance):
            found.append((1, 1, "the notebook's numbers", "{got} is the answer for the notebook's "
                          "own numbers: work it again with these new ones."))
        return found

    def _echo(self, got):
        """``got`` to 4 digits, or more where 4 would round it onto the answer."""
        for digits in (4, 6, 10):
            if not _close([float(f"{x:.{digits}g}") for x in got.ravel()],
                          np.ravel(self.answer), self.tolerance):
                break
        return _text(got.tolist(), digits=digits)

    def _kinds(self):
        """A share as a percentage, a size in the wrong unit (the prompt names it)."""
        a, kinds, kib, byte = self.answer, [], "KiB" in self.prompt, "bytes" in self.prompt
        if np.all((np.abs(a) <= 1) & (a != 0)):
            kinds.append(("a percentage", 100 * a, "{got} is the answer × 100: type the "
                          f"fraction ({self._shown(a)}, not {{got}})."))
        if kib:
            kinds.append(("1000 bytes a KiB", a * 1.024, "{got} counts kB of 1000 bytes: a KiB is "
                          "1024 bytes."))
        if kib or byte:
            kinds.append(("bits, not bytes", a * 8, "{got} counts bits: a byte is 8 bits."))
        if byte and not kib:
            kinds += [(f"{u}, not bytes", a / f, f"{{got}} is in {u}: give the bytes.")
                      for u, f in (("MiB", 2 ** 20), ("kB", 1000))]
        return kinds

    def _texts(self, **more):
        return {**{k: _text(v) for k, v in self.givens.items()}, **more}

    def _shown(self, value):
        decimals = max(0, math.ceil(-math.log10(self.tolerance)) + 1)
        return _text(np.round(value, decimals).tolist(), digits=12)


def _close(a, b, within):
    """Within ``within``, with room for the last binary digit (0.063 - 0.0625 > 0.0005)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    slack = 1e-9 * (within + np.abs(b))
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= within + slack))


def _top(x):
    return float(np.max(np.abs(np.asarray(x, float))))


def _cut_short(got, answer):
    """``got`` is ``answer`` rounded or cut (0.06 for 0.0625; 7.07 is not 7)."""
    for x, a in zip(np.ravel(got), np.ravel(answer), strict=True):
        text = repr(float(x))
        places = len(text.split(".")[1]) if "." in text and "e" not in text else 0
        if not any(math.isclose(x, cut(a * 10 ** places) / 10 ** places, abs_tol=1e-12)
                   for cut in (round, math.trunc)):
            return False
    return True


def _text(value, digits=4):
    """A number as the prompt writes it: true minus signs (−1, as in the question)."""
    return show(value, digits=digits).replace("-", "−")
