"""Dashboards driven without a browser: moving a slider runs the callback, which moves the
artists to where the math says and writes the math's numbers in the readout."""

from pathlib import Path


def test_widget_modules_compute_no_math_themselves():
    import course_lib.widgets as widgets_pkg

    for name in ("base", "vectors", "norm", "summation", "dot_product"):
        source = Path(widgets_pkg.__path__[0], f"{name}.py").read_text(encoding="utf-8")
        for forbidden in ("np.sqrt", "np.sum", "np.dot", "np.cumsum", "np.linalg", "math.cos"):
            assert forbidden not in source, (name, forbidden)
