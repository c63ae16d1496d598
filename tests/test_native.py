"""The compiled build of the hot modules (app/native.py, tools/native.py): a stale one never runs.

Each test works on a copy of the package in a temporary folder, with stand-in extension files where
the guard only has to see them, so the checkout's own build (if any) is never touched.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from app import native

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = ".cpython-311-x86_64-linux-gnu.so"


def _copy_of_app(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.json")
    )
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "native.py", tmp_path / "tools" / "native.py")
    return tmp_path / "app"


def _fake_build(package: Path) -> None:
    """What a build leaves, as far as the guard looks: an extension beside each source, a manifest."""
    for source in native.MODULES:
        (package.parent / source).with_suffix(SUFFIX).write_bytes(b"")
    (package / f"_native__mypyc{SUFFIX}").write_bytes(b"")
    native.write_manifest(package, native.MODULES)


def _python(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_listed_modules_exist_and_are_plain_python_sources() -> None:
    for source in native.MODULES:
        assert (ROOT / source).is_file(), source
        assert source.startswith("app/") and source.endswith(".py")


def test_a_checkout_without_a_build_runs_as_pure_python(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    assert native.stale_reasons(package) == []
    run = _python(tmp_path, "-c", "import app.rooms.diff as d; print(d.__file__)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("diff.py")


def test_a_fresh_build_passes_the_guard(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    assert native.stale_reasons(package) == []


def test_an_edited_source_refuses_the_import_and_names_the_fix(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    diff = package / "rooms" / "diff.py"
    diff.write_text(diff.read_text() + "\n# edited after the build\n")
    run = _python(tmp_path, "-c", "import app")
    assert run.returncode != 0
    assert "StaleNativeBuild" in run.stderr
    assert "app/rooms/diff.py has changed since it was compiled" in run.stderr
    assert "make native" in run.stderr and "make native-clean" in run.stderr


def test_compiled_files_without_a_manifest_are_refused(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    (package / native.MANIFEST_NAME).unlink()
    (reason,) = native.stale_reasons(package)
    assert f"{len(native.MODULES) + 1} compiled files but no {native.MANIFEST_NAME}" in reason


def test_a_compiled_module_the_manifest_does_not_list_is_refused(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    (package / "rooms" / f"room{SUFFIX}").write_bytes(b"")
    assert native.stale_reasons(package) == [f"app/rooms/room{SUFFIX} is not in {native.MANIFEST_NAME}"]


def test_a_listed_source_that_is_gone_is_refused(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    (package / "db" / "event_rows.py").unlink()
    assert native.stale_reasons(package) == ["app/db/event_rows.py is gone"]


def test_an_unreadable_manifest_is_refused(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    (package / native.MANIFEST_NAME).write_text(json.dumps({"built": []}))
    (reason,) = native.stale_reasons(package)
    assert reason.startswith(f"{native.MANIFEST_NAME} is unreadable")


def test_clean_removes_every_compiled_file_and_the_manifest(tmp_path: Path) -> None:
    package = _copy_of_app(tmp_path)
    _fake_build(package)
    run = _python(tmp_path, "tools/native.py", "clean")
    assert run.returncode == 0, run.stderr
    assert f"removed {len(native.MODULES) + 1} compiled files" in run.stdout
    assert native.compiled_files(package) == []
    assert not (package / native.MANIFEST_NAME).exists()
    assert _python(tmp_path, "-c", "import app").returncode == 0


def test_check_fails_while_the_listed_modules_import_as_pure_python(tmp_path: Path) -> None:
    _copy_of_app(tmp_path)
    run = _python(tmp_path, "tools/native.py", "check")
    assert run.returncode == 1
    assert "imported as pure Python: app.rooms.diff, app.rooms.frames" in run.stderr


def test_an_unknown_command_prints_the_usage(tmp_path: Path) -> None:
    _copy_of_app(tmp_path)
    run = _python(tmp_path, "tools/native.py", "compile")
    assert run.returncode == 2
    assert "make native-clean" in run.stderr
