"""Run every benchmark in this folder, in name order, and print their tables.

Usage: ``python benchmarks/run_all.py [WORD ...]``; with words, only the benchmark files
whose names contain one of them run (``run_all.py attention`` runs bench_attention.py).

Each ``benchmarks/bench_*.py`` defines ``main()``, which prints its own table (or returns it
as a string). A benchmark with targets returns them as ``(what, value, limit)`` triples; the
run ends with one line per target, "met" or "NOT met". Benchmarks time things; tests never do,
because this machine and CI machines are shared and noisy. Compare ratios measured in one run,
not seconds across runs.
"""

import importlib.util
import os
import platform
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def benchmark_files(words=()):
    """The ``bench_*.py`` files next to this script, sorted, filtered by ``words``."""
    files = sorted(HERE.glob("bench_*.py"))
    if words:
        files = [f for f in files if any(w in f.stem for w in words)]
    return files


def load(path):
    """Import a benchmark file as a module; its folder goes on sys.path, as when a benchmark
    runs on its own, so that it finds ``timing.py`` beside it."""
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def describe_machine():
    import numpy as np

    blas = {k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS_", "OMP_", "MKL_"))}
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"{os.cpu_count()} CPUs, {platform.machine()}")
    if blas:
        print("environment: " + ", ".join(f"{k}={v}" for k, v in sorted(blas.items())))


def main(argv=None):
    words = sys.argv[1:] if argv is None else argv
    files = benchmark_files(words)
    if not files:
        print(f"no benchmarks/bench_*.py matched {list(words) or 'anything'}", file=sys.stderr)
        return 1
    describe_machine()
    broken, targets = [], []
    for path in files:
        try:
            module = load(path)
        except Exception:
            traceback.print_exc()
            broken.append(path.name)
            continue
        if not hasattr(module, "main"):
            print(f"{path.name} has no main(); skipped", file=sys.stderr)
            broken.append(path.name)
            continue
        print(f"\n== {path.name} ==")
        start = time.perf_counter()
        try:
            table = module.main()
        except Exception:  # one broken benchmark must not hide the others' tables
            traceback.print_exc()
            print(f"{path.name} FAILED; the other benchmarks go on", file=sys.stderr)
            broken.append(path.name)
            continue
        if isinstance(table, str):
            print(table)
        elif isinstance(table, list):  # targets: (what, measured value, limit)
            targets += [t for t in table if isinstance(t, tuple) and len(t) == 3]
        print(f"({path.name} took {time.perf_counter() - start:.1f} s)")
    print_targets(targets)
    return 1 if broken else 0


def print_targets(targets):
    """One line per target: what, the measured value, met or NOT met."""
    if not targets:
        return
    print("\n== targets ==")
    for what, value, limit in targets:
        print(f"{'met' if value <= limit else 'NOT met':>7}  {what}: measured {value:.2f}")


if __name__ == "__main__":
    sys.exit(main())
