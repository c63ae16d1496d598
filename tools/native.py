"""Compile the modules that ``app/native.py`` lists with mypyc, in place; or remove that build.

    python tools/native.py build   # `make native`: needs a C compiler and requirements-native.lock
    python tools/native.py clean   # `make native-clean`: back to pure Python
    python tools/native.py check   # exit 1 unless every listed module imports compiled

Run from the repository's root (the Docker builder stage runs it from its copy of the tree): mypyc
reads the project's mypy settings from ``pyproject.toml`` there. It loads ``app/native.py`` by path
rather than importing ``app``, whose guard would refuse the very build this replaces.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import sys
import warnings
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BUILD_TEMP = ROOT / "build" / "native"


def _native_spec() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_bordet_native_spec", ROOT / "app" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _remove_build(native: ModuleType) -> int:
    """Delete every extension under app/, the manifest and the build's scratch; how many extensions."""
    removed = native.compiled_files(native.PACKAGE)
    for path in removed:
        path.unlink()
    (native.PACKAGE / native.MANIFEST_NAME).unlink(missing_ok=True)
    shutil.rmtree(BUILD_TEMP, ignore_errors=True)
    return len(removed)


def clean() -> int:
    removed = _remove_build(_native_spec())
    print(f"removed {removed} compiled files: app runs as pure Python")
    return 0


def build() -> int:
    native = _native_spec()
    _remove_build(native)  # a module dropped from the list must not keep its old extension
    os.chdir(ROOT)  # mypycify takes the sources' paths, and pyproject.toml, relative to here
    # Imported here: only a build needs the compiler's packages (requirements-native.lock).
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped,unused-ignore]

    # setuptools also reads pyproject.toml's [tool.setuptools] here, which this build does not use.
    warnings.filterwarnings("ignore", message=".*tool.setuptools.*")
    extensions = mypycify(
        list(native.MODULES),
        opt_level="3",
        group_name=native.GROUP,
        target_dir=str(BUILD_TEMP / "c"),
    )
    setup(
        name="bordet-native",
        ext_modules=extensions,
        script_args=[
            "--quiet",
            "build_ext",
            "--inplace",
            f"--build-temp={BUILD_TEMP / 'temp'}",
            f"--build-lib={BUILD_TEMP / 'lib'}",
        ],
    )
    native.write_manifest(native.PACKAGE, native.MODULES)
    print(f"compiled {len(native.MODULES)} modules; `make native-clean` returns to pure Python")
    return check()


def check() -> int:
    native = _native_spec()
    sys.path.insert(0, str(ROOT))
    pure: list[str] = []
    for source in native.MODULES:
        name = source.removesuffix(".py").replace("/", ".")
        if not native.is_compiled(importlib.import_module(name).__file__):
            pure.append(name)
    if pure:
        print("imported as pure Python: " + ", ".join(pure), file=sys.stderr)
        return 1
    print(f"all {len(native.MODULES)} listed modules import compiled")
    return 0


def main(argv: list[str]) -> int:
    commands = {"build": build, "clean": clean, "check": check}
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    return commands[argv[0]]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
