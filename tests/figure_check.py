"""Pictures compared with a tolerance: the plot functions' baselines and the notebooks' figures.

Two checks share this module:

* ``tests/test_figures.py``: each public plot function, drawn at fixed inputs, against
  ``tests/baseline/*.png`` (pytest-mpl).
* the notebooks: nbval runs every notebook in a fresh kernel but never compares ``image/png``
  outputs. ``conftest.py``'s ``pytest_runtest_call`` hook takes the PNGs of that same fresh
  run (nbval keeps them in ``item.test_outputs``) and compares them with the stored ones by
  :func:`png_difference`: a notebook whose stored figure is not what the current code draws
  fails on that cell ("re-execute the notebook"). No second kernel, no second run: it costs
  a PNG decode per figure. Cells whose outputs nbval does not check (``NBVAL_IGNORE_OUTPUT``)
  are not compared either.

Both compare only under the matplotlib the baselines and the stored notebooks were made with
(the lock's newest, ``tests/baseline/MATPLOTLIB_VERSION``): another version may draw a few
pixels differently, so there the comparisons skip with one reason line.
"""

import base64
import io
from pathlib import Path

import numpy as np

BASELINE = Path(__file__).resolve().parent / "baseline"
# RMS of the pixel difference, 0–255 scale (matplotlib.testing.compare). The same matplotlib
# and its bundled DejaVu fonts draw the same pixels everywhere; the margin covers
# anti-aliasing differences between CPUs. Measured on draw_weights' picture: one bar
# recoloured gives 16, a changed title 9.5, one letter added to the y label 6.3.
TOLERANCE = 2.0


def baseline_version():
    """The matplotlib version the baselines (and the stored notebook figures) belong to."""
    return (BASELINE / "MATPLOTLIB_VERSION").read_text(encoding="utf-8").strip()


def version_mismatch():
    """None under the baselines' matplotlib, else the one reason line why nothing is compared."""
    import matplotlib

    if matplotlib.__version__ == baseline_version():
        return None
    return (f"figure baselines are for matplotlib {baseline_version()}, this is "
            f"{matplotlib.__version__}: image comparison skipped")


def png_difference(stored_png, fresh_png):
    """RMS difference of two PNGs given as bytes or base64 text; inf if their sizes differ."""
    from matplotlib.testing.compare import calculate_rms
    from PIL import Image

    if stored_png == fresh_png:  # the usual case: the same matplotlib writes the same bytes
        return 0.0
    images = []
    for png in (stored_png, fresh_png):
        data = base64.b64decode(png) if isinstance(png, str) else png
        with Image.open(io.BytesIO(data)) as image:
            images.append(np.asarray(image.convert("RGB"), dtype=float))
    if images[0].shape != images[1].shape:
        return float("inf")
    return float(calculate_rms(images[0], images[1]))


def cell_pngs(outputs):
    """The PNG outputs of a cell, in order (base64 text, as a notebook stores them)."""
    return [out["data"]["image/png"] for out in outputs
            if "image/png" in out.get("data", {})]


def stale_figures(stored_outputs, fresh_outputs, tolerance=TOLERANCE):
    """Why the stored figures differ from the fresh ones (a list of lines; empty: they agree)."""
    stored, fresh = cell_pngs(stored_outputs), cell_pngs(fresh_outputs)
    if len(stored) != len(fresh):
        return [f"{len(stored)} stored figure(s), {len(fresh)} in the fresh run"]
    problems = []
    for number, (old, new) in enumerate(zip(stored, fresh, strict=True), start=1):
        rms = png_difference(old, new)
        if rms > tolerance:
            size = "another size" if rms == float("inf") else f"RMS {rms:.1f} > {tolerance}"
            problems.append(f"figure {number} is not what the current code draws ({size})")
    return problems
