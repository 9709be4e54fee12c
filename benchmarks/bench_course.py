"""How long the whole course takes to run, next to the cost of just starting its kernels.

Every notebook in ``notebooks/`` is executed top to bottom in a fresh kernel (as a learner's
"Restart and run all", and as nbval does), in memory: nothing is written back. Beside each
one, a trivial one-cell notebook (``1 + 1``) runs in its own fresh kernel too: its time is the
floor that no notebook can beat (starting Python, IPython and the kernel connection). The two
are interleaved, notebook by notebook, so a noisy machine slows both alike.

Target (issue 20): the course takes less than 2.5 × the floor, that is, on average each
notebook's own work costs less than one and a half kernel starts.

Run: ``python benchmarks/bench_course.py`` (or ``make bench``).
"""

import importlib.util
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
TARGET_RATIO = 2.5
KERNEL = "python3"


def quiet_kernel_config():
    """tools/quiet_kernels.py's settings: kernels that do not print ipykernel's TCP warning
    between the table's lines."""
    path = ROOT / "tools" / "quiet_kernels.py"
    spec = importlib.util.spec_from_file_location("quiet_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel_config()


KERNEL_CONFIG = quiet_kernel_config()


def course_notebooks():
    """The course's notebooks, in order."""
    return sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))


def trivial_notebook():
    """A notebook with one code cell, ``1 + 1``: running it costs a kernel start and little else."""
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])


def run_seconds(notebook, cwd=NOTEBOOK_DIR):
    """Execute ``notebook`` (a NotebookNode, changed in memory only) in a fresh kernel; return
    the wall-clock seconds from kernel start to kernel shutdown."""
    # "immediate": a graceful kernel shutdown sometimes waits seconds for the kernel to exit,
    # noise that is neither the notebook's work nor part of starting a kernel.
    client = NotebookClient(notebook, timeout=600, kernel_name=KERNEL, shutdown_kernel="immediate",
                            resources={"metadata": {"path": str(cwd)}}, config=KERNEL_CONFIG)
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def main():
    paths = course_notebooks()
    if not paths:
        return f"no notebooks found in {NOTEBOOK_DIR}"
    rows = []
    for path in paths:
        floor = run_seconds(trivial_notebook())
        course = run_seconds(nbformat.read(path, as_version=4))
        rows.append((path.name, course, floor))
    total_course = sum(r[1] for r in rows)
    total_floor = sum(r[2] for r in rows)
    ratio = total_course / total_floor
    lines = [f"{'notebook':34s} {'run (s)':>8s} {'floor (s)':>10s} {'× floor':>8s}"]
    for name, course, floor in rows:
        lines.append(f"{name:34s} {course:8.2f} {floor:10.2f} {course / floor:8.2f}")
    lines.append(f"{'total, ' + str(len(rows)) + ' notebooks':34s} {total_course:8.2f} "
                 f"{total_floor:10.2f} {ratio:8.2f}")
    verdict = "within" if ratio < TARGET_RATIO else "OVER"
    lines.append(f"course {total_course:.1f} s vs {len(rows)} trivial notebooks "
                 f"{total_floor:.1f} s: {ratio:.2f} × the kernel-start floor "
                 f"({verdict} the target of {TARGET_RATIO:g} ×)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
