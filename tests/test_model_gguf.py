"""The course's GGUF reader and dequantizer against the ``gguf`` package (llama.cpp's own).

``course_lib.model_file.read_gguf`` and ``course_lib.model.dequantize`` replace gguf's reader at
run time; gguf stays a test requirement as the independent reference. A small file written by
gguf's own writer (every metadata type, every tensor type the reader knows) runs everywhere;
the real model's file, where ``make model`` has put it, is compared tensor by tensor.
"""

import subprocess
import sys
from pathlib import Path

import gguf  # a test requirement (requirements-dev.txt): the independent reference
import numpy as np
import pytest

from course_lib.model import dequantize
from course_lib.model_file import read_gguf

ROOT = Path(__file__).resolve().parents[1]

KINDS = {"F32": gguf.GGMLQuantizationType.F32, "F16": gguf.GGMLQuantizationType.F16,
         "Q4_1": gguf.GGMLQuantizationType.Q4_1, "Q8_0": gguf.GGMLQuantizationType.Q8_0}


def theirs(path):
    """gguf's reading of the file: (metadata, {name: (kind, shape, offset, float32 numbers)})."""
    reader = gguf.GGUFReader(path)
    metadata = {name: field.contents() for name, field in reader.fields.items()
                if not name.startswith("GGUF.")}  # the header's counts, not metadata
    tensors = {t.name: (t.tensor_type.name, tuple(int(s) for s in reversed(t.shape)),
                        t.data_offset, gguf.quants.dequantize(t.data, t.tensor_type))
               for t in reader.tensors}
    return metadata, tensors


def ours(path):
    file = read_gguf(path)
    tensors = {name: (info.kind, info.shape, info.offset,
                      dequantize(np.frombuffer(file.data, np.uint8, info.nbytes, info.offset),
                                 info.kind, info.shape))
               for name, info in file.tensors.items()}
    return file.metadata, tensors


def assert_same_file(path):
    their_metadata, their_tensors = theirs(path)
    our_metadata, our_tensors = ours(path)
    assert our_metadata == their_metadata
    assert list(our_tensors) == list(their_tensors)
    for name, (kind, shape, offset, numbers) in our_tensors.items():
        t_kind, t_shape, t_offset, t_numbers = their_tensors[name]
        assert (kind, shape, offset) == (t_kind, t_shape, t_offset), name
        assert numbers.dtype == np.float32 and numbers.shape == shape, name
        t_numbers = np.asarray(t_numbers, np.float32).reshape(shape)
        assert np.array_equal(numbers.view(np.uint32), t_numbers.view(np.uint32)), name  # bits


@pytest.fixture(scope="module")
def small_file(tmp_path_factory):
    """A GGUF file from gguf's writer: scalars, strings, arrays and one tensor of each kind."""
    path = tmp_path_factory.mktemp("gguf") / "small.gguf"
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_uint32("test.u32", 7)
    writer.add_int32("test.i32", -3)
    writer.add_float32("test.f32", 1e-5)
    writer.add_uint64("test.u64", 2**40)
    writer.add_bool("test.bool", True)
    writer.add_string("test.str", "Ġattention — ü")
    writer.add_array("test.strings", ["a", "", "Ġb c", "日本"])
    writer.add_array("test.ints", [3, 1, 4, 1, 5])
    writer.add_array("test.floats", [0.5, -2.25])
    rng = np.random.default_rng(0)
    for name, kind in KINDS.items():
        x = rng.standard_normal((3, 64)).astype(np.float32)  # 3 rows of 2 blocks of 32
        x[1, :32] = 0.25  # a block with one value (d = 0 for Q4_1)
        data = x.astype(np.float16) if name == "F16" else (
            x if name == "F32" else gguf.quants.quantize(x, kind))
        writer.add_tensor(f"t.{name}", data, raw_dtype=kind)  # quantized: its bytes' shape
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_a_small_file_reads_as_gguf_reads_it(small_file):
    assert_same_file(small_file)
    metadata = read_gguf(small_file).metadata
    assert metadata["test.strings"] == ["a", "", "Ġb c", "日本"]
    assert metadata["test.i32"] == -3 and metadata["test.bool"] is True


def test_the_real_models_file_reads_bit_for_bit_as_gguf_reads_it(model_file):
    assert_same_file(model_file)
    kinds = {info.kind for info in read_gguf(model_file).tensors.values()}
    assert kinds == {"F32", "Q4_1", "Q8_0"}  # each of dequantize's formulas is used


def test_dequantize_is_the_formula_on_one_block():
    d, m = np.float16(0.5), np.float16(-1.0)
    q = np.arange(32) % 16  # q_j for j = 0 … 31
    packed = (q[:16] | (q[16:] << 4)).astype(np.uint8)  # byte j: q_j low, q_{j+16} high
    block = np.concatenate([np.array([d, m], np.float16).view(np.uint8), packed])
    assert dequantize(block, "Q4_1", (32,)).tolist() == (0.5 * q - 1.0).tolist()
    q8 = np.arange(-16, 16, dtype=np.int8)
    block8 = np.concatenate([np.array([d], np.float16).view(np.uint8), q8.view(np.uint8)])
    assert dequantize(block8, "Q8_0", (32,)).tolist() == (0.5 * q8).tolist()


@pytest.mark.parametrize("damage, message", [
    (lambda b: b"GGML" + b[4:], "not a GGUF file"),
    (lambda b: b[:4] + (2).to_bytes(4, "little") + b[8:], "version 2"),
    (lambda b: b[:-100], "cut short"),
])
def test_a_damaged_file_is_refused_with_the_reason(small_file, tmp_path, damage, message):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(damage(small_file.read_bytes()))
    with pytest.raises(ValueError, match=message):
        read_gguf(broken)


def test_loading_the_model_needs_no_gguf_package(model_file):
    code = ("import sys; from course_lib.model import load_model; lm = load_model(); "
            "print(lm.config.num_layers, 'gguf' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == ["30", "False"]
