"""The one entry point, check(name, answer): names, typos, and worked solutions that show no
answer."""

import math

from course_lib.exercises import check, evaluate, exercise, names


def test_every_exercise_has_a_unique_name_and_a_notebook_checks_it(capsys):
    from pathlib import Path

    text = "".join(p.read_text(encoding="utf-8")
                   for p in (Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
    assert names()
    missing = [n for n in names() if f'check(\\"{n}\\"' not in text]
    assert not missing, f"exercises no notebook checks: {missing}"


def test_a_typo_names_the_nearest_exercise():
    feedback = evaluate("lenght", lambda q: 0)
    assert not feedback.passed and "'length'" in feedback.message


def test_a_worked_solution_says_it_passes_and_shows_no_number(capsys):
    check("length by hand", 7.0, solution=True)
    said = capsys.readouterr().out
    assert said.strip() == "The worked solution passes."
    check("length", lambda q: math.sqrt(sum(x * x for x in q)), solution=True)
    assert capsys.readouterr().out.strip() == "The worked solution passes."


def test_a_broken_worked_solution_is_loud(capsys):
    check("length", lambda q: sum(q), solution=True)
    assert "does NOT pass" in capsys.readouterr().out


def test_a_right_by_hand_answer_states_the_true_value_not_the_near_miss():
    said = str(evaluate("length by hand", 6.996))
    assert said.startswith("Correct") and "= 7" in said and "6.996 is within" in said


def test_exercise_objects_are_found_by_name():
    assert exercise("length").call == "length(q)"
