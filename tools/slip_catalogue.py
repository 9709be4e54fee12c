"""Write docs/SLIPS.md, the catalogue of every slip the checkers name, from the tables
themselves (``python tools/slip_catalogue.py``; ``--check`` says whether the file is current).

Nothing here is typed twice: each exercise's rows come from its table in
course_lib/exercises/, the general relations from course_lib/exercises/relations.py.
"""

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import course_lib.exercises as exercises  # noqa: E402
from course_lib.exercises import CodeExercise, relations  # noqa: E402
from course_lib.exercises.engine import TUPLE, WHOLE  # noqa: E402

OUT = ROOT / "docs" / "SLIPS.md"


def _one_line(text):
    return " ".join(str(text).split()).replace("|", "\\|")


def _how(slip):
    if slip.raises is not None:
        kind, words = slip.raises if isinstance(slip.raises, tuple) else (slip.raises, "")
        return f"raises {kind.__name__}" + (f" ({words})" if words else "")
    if slip.when is not None:
        return "a test on the outcome"
    forms = len(slip.forms())
    return "its answer" if forms == 1 else f"its answer ({forms} forms)"


def catalogue():
    """The catalogue's text."""
    lines = ["# The slips the checkers name", "",
             "Written by `tools/slip_catalogue.py` from the tables in `course_lib/exercises/` "
             "(do not edit by hand; `make slips` rewrites it). A slip is seen by *its answer* "
             "(the learner's answer equals it on every case where it differs from the right "
             "one), by the error it *raises*, or by a *test on the outcome*. What no table lists, "
             "the general relations at the end name.", ""]
    for info in pkgutil.iter_modules(exercises.__path__):
        module = importlib.import_module(f"course_lib.exercises.{info.name}")
        found = getattr(module, "EXERCISES", None)
        if not found:
            continue
        title = _one_line((module.__doc__ or info.name).strip().split("\n\n")[0])
        lines += [f"## `{info.name}`: {title}", ""]
        for ex in found:
            what = ex.call if isinstance(ex, CodeExercise) else _one_line(ex.title) + ", by hand"
            lines += [f"### `check(\"{ex.name}\", …)`: {what}", "",
                      "| slip | seen by | hint |", "|---|---|---|"]
            for slip in ex.slips + getattr(ex, "twins", []):
                hint = slip.hint if isinstance(slip.hint, str) else "(computed)"
                lines.append(f"| {slip.name} | {_how(slip)} | {_one_line(hint)} |")
            lines.append("")
    lines += ["## The general relations (every code exercise)", "",
              "Tried after each exercise's table; at a tie the table's row is named. "
              "`{X}` stands for each quantity an exercise names (d_k, n, m, L …).", ""]
    seen = set()
    for tier, rule in relations.for_code({"{X}": None}):
        if rule.name in seen:
            continue
        seen.add(rule.name)
        hint = rule.hint if isinstance(rule.hint, str) else "(says the value it found)"
        lines.append(f"- **{rule.name}** ({'relation' if tier == 1 else 'statement'}): "
                     f"{_one_line(hint)}")
    lines += ["", f"A right answer of the wrong kind is named too: **{WHOLE}** (where the "
              f"exercise asks for one) and **{TUPLE}**.", "",
              "By hand, besides each table: the sign turned round, a decimal point moved "
              "(for answers of two significant digits or more), squared, square-rooted, the "
              "reciprocal, numbers in the wrong order, the notebook's own numbers typed for a "
              "fresh variant, rounded too early, too many or too few numbers, and the right "
              "number typed in a code cell as text, in quotes.", ""]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/SLIPS.md is stale")
    args = parser.parse_args(argv)
    text = catalogue()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run `make slips`")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
