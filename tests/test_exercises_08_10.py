"""Notebook 10, the equipment checklist: its table links every question to the notebook that
teaches it, and the answers keep the square root."""


# --- notebook 10: the equipment checklist ---------------------------------------------------

def test_checklist_notebook_links_every_question_to_its_notebook():
    import re
    from pathlib import Path

    import nbformat

    from course_lib.checklist import CHECKLIST

    path = Path(__file__).resolve().parent.parent / "notebooks" / "10_checklist.ipynb"
    nb = nbformat.read(path, as_version=4)
    table = [line for cell in nb.cells if cell.cell_type == "markdown"
             for line in cell.source.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(table) == len(CHECKLIST) == 14
    for number, (line, question) in enumerate(zip(table, CHECKLIST, strict=True), start=1):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == str(number)
        assert cells[1] == question.question
        link = re.search(r"\]\((\d\d)_[a-z_]+\.ipynb\)", cells[2])
        assert link is not None and int(link.group(1)) == question.notebook


def test_checklist_answers_keep_the_square_root():
    from course_lib.checklist import CHECKLIST

    def answer(start):
        return next(q.answer for q in CHECKLIST if q.question.startswith(start))

    why = answer("Why divide the scores by")
    assert r"\sqrt{d_k}" in why and "standard deviation" in why
    assumption = answer("Under what assumption does")
    assert "independent" in assumption and "mean 0" in assumption and "variance 1" in assumption
