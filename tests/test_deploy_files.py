"""Checks of the deployment files (Dockerfile, docker/entrypoint.sh, docker-compose.yml, .dockerignore).

No Docker engine is needed: the Dockerfile is parsed into instructions, the compose file is
parsed with PyYAML, and the entrypoint and health-check commands are run locally against
stand-ins.  When a `docker compose` CLI is available, the compose file is also validated by
it (`config -q` needs no daemon).
"""

from __future__ import annotations

import fnmatch
import glob
import http.server
import ipaddress
import itertools
import json
import os
import posixpath
import re
import shlex
import shutil
import stat
import subprocess
import sys
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped,unused-ignore]

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "docker-compose.yml"
DOCKERIGNORE = ROOT / ".dockerignore"
UVICORN_CMD = [
    "uvicorn",
    "app.main:app",
    "--host",
    "0.0.0.0",
    "--port",
    "8000",
    "--proxy-headers",
    "--ws-per-message-deflate",
    "false",
    "--ws-max-size",
    "1048576",
]
HEALTH_URL = "http://127.0.0.1:8000/api/health"


# --------------------------------------------------------------------------- Dockerfile parsing


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case: FROM, RUN, COPY...
    args: str  # raw argument text, continuations joined
    line: int  # 1-based line where the instruction starts

    def exec_form(self) -> list[str] | None:
        """The JSON (exec) form of the arguments, or None for the shell form."""
        text = self.args.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                return None
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return value
        return None

    def words(self) -> list[str]:
        return shlex.split(self.args)


def parse_dockerfile(text: str) -> list[Instruction]:
    """Split a Dockerfile into instructions (comments dropped, `\\` continuations joined)."""
    instructions: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # comment lines inside a continued instruction are ignored
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        keyword, _, args = " ".join(part.strip() for part in pending if part.strip()).partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip(), start))
        pending = []
    assert not pending, "Dockerfile ends inside a continued instruction"
    return instructions


def flags_and_operands(words: list[str]) -> tuple[dict[str, str], list[str]]:
    flags: dict[str, str] = {}
    operands: list[str] = []
    for word in words:
        if word.startswith("--") and not operands:
            name, _, value = word[2:].partition("=")
            flags[name] = value
        else:
            operands.append(word)
    return flags, operands


@pytest.fixture(scope="module")
def dockerfile() -> list[Instruction]:
    assert DOCKERFILE.is_file(), "Dockerfile is missing"
    return parse_dockerfile(DOCKERFILE.read_text())


def stages(instructions: list[Instruction]) -> list[list[Instruction]]:
    """The build's stages, each from its FROM up to the next."""
    starts = [i for i, ins in enumerate(instructions) if ins.keyword == "FROM"]
    assert starts, "no FROM instruction"
    return [instructions[begin:end] for begin, end in itertools.pairwise([*starts, len(instructions)])]


def final_stage(instructions: list[Instruction]) -> list[Instruction]:
    return stages(instructions)[-1]


def last(instructions: list[Instruction], keyword: str) -> Instruction:
    found = [ins for ins in instructions if ins.keyword == keyword]
    assert found, f"no {keyword} instruction"
    return found[-1]


def copies(instructions: list[Instruction]) -> list[tuple[list[str], str]]:
    """(sources, destination) of each COPY/ADD from the build context."""
    result = []
    for ins in instructions:
        if ins.keyword not in ("COPY", "ADD"):
            continue
        form = ins.exec_form()
        flags, operands = flags_and_operands(form if form is not None else ins.words())
        if "from" in flags:
            continue  # from another stage or image, not from the repository
        assert len(operands) >= 2, f"line {ins.line}: {ins.keyword} needs a source and a destination"
        result.append((operands[:-1], operands[-1]))
    return result


def test_parser_handles_continuations_comments_and_forms() -> None:
    text = 'FROM x\n# c\nRUN a \\\n  # inner\n  && b\nCMD ["u", "v"]\nENV A=1\n'
    parsed = parse_dockerfile(text)
    assert [(i.keyword, i.args, i.line) for i in parsed] == [
        ("FROM", "x", 1),
        ("RUN", "a && b", 3),
        ("CMD", '["u", "v"]', 6),
        ("ENV", "A=1", 7),
    ]
    assert parsed[2].exec_form() == ["u", "v"] and parsed[1].exec_form() is None


def test_from_slim_python_311(dockerfile: list[Instruction]) -> None:
    base = final_stage(dockerfile)[0].words()
    image = next(word for word in base if not word.startswith("--"))
    assert re.fullmatch(
        r"(docker\.io/)?(library/)?python:3\.11(\.\d+)?-slim(-[a-z]+)?(@sha256:[0-9a-f]{64})?", image
    ), image


def test_runs_as_a_non_root_user(dockerfile: list[Instruction]) -> None:
    stage = final_stage(dockerfile)
    run_at = [i for i, ins in enumerate(stage) if ins.keyword in ("CMD", "ENTRYPOINT")]
    assert run_at, "no CMD or ENTRYPOINT"
    users = [ins for ins in stage[: min(run_at)] if ins.keyword == "USER"]
    assert users, "no USER before CMD/ENTRYPOINT: the server would run as root"
    user = users[-1].args.split(":")[0].strip()
    assert user not in ("", "root", "0"), f"USER {users[-1].args!r} is root"
    # Nothing after CMD/ENTRYPOINT switches back to root.
    later = [ins for ins in stage[min(run_at) :] if ins.keyword == "USER"]
    assert all(ins.args.split(":")[0].strip() not in ("root", "0") for ins in later)


def test_copy_sources_exist_in_the_repository(dockerfile: list[Instruction]) -> None:
    pairs = copies(dockerfile)
    assert pairs, "no COPY from the build context"
    for sources, _dest in pairs:
        for source in sources:
            assert not source.startswith(("/", "..")), f"COPY source {source!r} is outside the context"
            assert glob.glob(str(ROOT / source.rstrip("/"))), f"COPY source {source!r} does not exist"


def test_copies_what_the_server_needs(dockerfile: list[Instruction]) -> None:
    sources = {source.rstrip("/") for sources, _ in copies(final_stage(dockerfile)) for source in sources}
    for needed in ("requirements.lock", "pyproject.toml", "migrations", "alembic.ini", "static"):
        assert needed in sources, f"{needed} is not copied into the image"


def stage_named(instructions: list[Instruction], name: str) -> list[Instruction]:
    for stage in stages(instructions):
        if [word.lower() for word in stage[0].words()][-2:] == ["as", name]:
            return stage
    raise AssertionError(f"no stage named {name!r}")


def test_the_image_takes_app_compiled_from_the_builder_stage(dockerfile: list[Instruction]) -> None:
    builder = stage_named(dockerfile, "native")
    # The same base image as the server's, so the extensions fit its interpreter.
    assert builder[0].words()[0] == final_stage(dockerfile)[0].words()[0]
    built_from = {source.rstrip("/"): dest for sources, dest in copies(builder) for source in sources}
    for needed in (
        "requirements.lock",
        "requirements-native.lock",
        "pyproject.toml",
        "app",
        "tools/native.py",
    ):
        assert needed in built_from, f"the builder stage does not copy {needed}"
    runs = [ins.args for ins in builder if ins.keyword == "RUN"]
    install = [
        i for i, run in enumerate(runs) if re.search(r"pip install\b.*-r\s+requirements-native\.lock", run)
    ]
    compile_ = [i for i, run in enumerate(runs) if re.fullmatch(r"python tools/native\.py build", run)]
    assert install and compile_ and install[0] < compile_[0], runs
    # The runtime stage copies the builder's app/ over where the server imports it from.
    stage = final_stage(dockerfile)
    taken = [ins.words() for ins in stage if ins.keyword == "COPY" and ins.words()[0] == "--from=native"]
    assert taken == [["--from=native", posixpath.join(last(builder, "WORKDIR").args, "app/"), "./app/"]]
    copy_at = next(i for i, ins in enumerate(stage) if ins.words()[:1] == ["--from=native"])
    install_at = next(i for i, ins in enumerate(stage) if re.search(r"pip install\b.*--no-deps", ins.args))
    assert copy_at < install_at, "the package is installed before the compiled app/ is in place"


def test_the_package_carries_the_compiled_files_it_is_built_with() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "*.so" in data["*"] and "_native.json" in data["app"]


def test_installs_from_the_lock_then_the_package_without_deps(dockerfile: list[Instruction]) -> None:
    runs = [ins.args for ins in final_stage(dockerfile) if ins.keyword == "RUN"]
    lock = [i for i, run in enumerate(runs) if re.search(r"pip install\b.*-r\s+\S*requirements\.lock", run)]
    package = [i for i, run in enumerate(runs) if re.search(r"pip install\b.*--no-deps\s+\.(\s|$)", run)]
    assert lock and package, runs
    assert lock[0] < package[0], "the package is installed before its pinned dependencies"


def test_expose_8000(dockerfile: list[Instruction]) -> None:
    exposed = {port.split("/")[0] for ins in dockerfile if ins.keyword == "EXPOSE" for port in ins.words()}
    assert "8000" in exposed


def test_cmd_is_uvicorn_with_proxy_headers(dockerfile: list[Instruction]) -> None:
    stage = final_stage(dockerfile)
    cmd = last(stage, "CMD").exec_form()
    assert cmd == UVICORN_CMD, cmd


def resolve_in_image(dockerfile: list[Instruction], executable: str) -> Path:
    """The repository file that the image runs as ``executable`` (found through COPY)."""
    workdir = "/"
    search = ["/usr/local/bin", "/usr/bin", "/bin"]
    for ins in final_stage(dockerfile):
        if ins.keyword == "WORKDIR":
            workdir = posixpath.join(workdir, ins.args.strip())
        if ins.keyword not in ("COPY", "ADD"):
            continue
        for sources, dest in copies([ins]):
            dest_abs = posixpath.normpath(posixpath.join(workdir, dest))
            into_dir = dest.endswith("/") or len(sources) > 1
            for source in sources:
                name = posixpath.basename(source.rstrip("/"))
                target = posixpath.join(dest_abs, name) if into_dir else dest_abs
                if target == executable or (
                    not executable.startswith("/")
                    and target in {posixpath.join(d, executable) for d in search}
                ):
                    return ROOT / source
    raise AssertionError(f"{executable!r} is not copied from the repository")


@pytest.fixture
def fake_bin(tmp_path: Path) -> tuple[Path, Path]:
    """A directory of stand-ins for alembic and uvicorn that log how they were called."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "calls.log"
    for name in ("alembic", "uvicorn"):
        script = bindir / name
        script.write_text(
            '#!/bin/sh\necho "$(basename "$0") $*" >> "$CALLS_LOG"\n'
            f'[ -z "${{FAIL_{name.upper()}:-}}" ] || exit 3\n'
        )
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return bindir, log


def run_entrypoint(dockerfile: list[Instruction], bindir: Path, log: Path, **extra_env: str) -> int:
    entrypoint = last(final_stage(dockerfile), "ENTRYPOINT").exec_form()
    assert entrypoint, "ENTRYPOINT must use the exec form"
    script = resolve_in_image(dockerfile, entrypoint[0])
    assert script.read_text().startswith("#!/bin/sh"), "the slim image runs the entrypoint with /bin/sh"
    cmd = last(final_stage(dockerfile), "CMD").exec_form()
    assert cmd is not None
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", "CALLS_LOG": str(log)}
    env.update(extra_env)
    done = subprocess.run(["sh", str(script), *entrypoint[1:], *cmd], env=env, cwd=bindir, timeout=30)
    return done.returncode


def test_migrations_run_before_uvicorn(dockerfile: list[Instruction], fake_bin: tuple[Path, Path]) -> None:
    bindir, log = fake_bin
    assert run_entrypoint(dockerfile, bindir, log) == 0
    assert log.read_text().splitlines() == ["alembic upgrade head", " ".join(UVICORN_CMD)]


def test_failed_migration_stops_the_start(dockerfile: list[Instruction], fake_bin: tuple[Path, Path]) -> None:
    bindir, log = fake_bin
    assert run_entrypoint(dockerfile, bindir, log, FAIL_ALEMBIC="1") != 0
    assert log.read_text().splitlines() == ["alembic upgrade head"]


def healthcheck_command(dockerfile: list[Instruction]) -> list[str]:
    check = last(final_stage(dockerfile), "HEALTHCHECK")
    match = re.fullmatch(r"(?:--\S+\s+)*CMD\s+(.*)", check.args, re.DOTALL)
    assert match, "HEALTHCHECK must run a command (not NONE)"
    command = Instruction("CMD", match.group(1), check.line).exec_form()
    assert command, "HEALTHCHECK CMD must use the exec form"
    return command


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self) -> None:
        code = self.status if self.path == "/api/health" else 404
        body = b'{"status":"ok"}'
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def run_health_command(command: list[str], status: int | None) -> int:
    """Run the health check against a local stand-in server (None: nothing listening)."""
    handler = type("Handler", (_Health,), {"status": status or 200})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    port = server.server_address[1]
    if status is None:
        server.server_close()  # the port is now free: connection refused
    else:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        argv = [arg.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for arg in command]
        assert argv[0] == "python", "the slim image has python, not curl or wget"
        return subprocess.run([sys.executable, *argv[1:]], capture_output=True, timeout=30).returncode
    finally:
        if status is not None:
            server.shutdown()
            server.server_close()


def test_healthcheck_hits_api_health_with_python(dockerfile: list[Instruction]) -> None:
    command = healthcheck_command(dockerfile)
    assert HEALTH_URL in " ".join(command)
    assert run_health_command(command, 200) == 0
    assert run_health_command(command, 503) == 1
    assert run_health_command(command, None) == 1


def test_health_route_exists_in_the_app() -> None:
    sources = (path.read_text(errors="replace") for path in (ROOT / "app").rglob("*.py"))
    assert any('"/api/health"' in text for text in sources), "no /api/health route in app/"


# --------------------------------------------------------------------------- .dockerignore


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether the build context drops ``path`` (Docker's rules: last matching pattern wins)."""
    parts = path.strip("/").split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    result = False
    for raw in patterns:
        negate = raw.startswith("!")
        pattern = raw[1:] if negate else raw
        pattern = pattern.strip("/")
        if pattern.startswith("**/"):
            hit = any(fnmatch.fnmatch(prefix.split("/")[-1], pattern[3:]) for prefix in prefixes)
        else:
            hit = any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)
        if hit:
            result = not negate
    return result


def test_dockerignore_keeps_every_copy_source(dockerfile: list[Instruction]) -> None:
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for sources, _ in copies(dockerfile):
        for source in sources:
            assert not ignored(source, patterns), f"COPY source {source!r} is excluded by .dockerignore"
    for local_state in (".git", ".venv", "data", ".env", "app/__pycache__", "tests"):
        assert ignored(local_state, patterns), f"{local_state} should stay out of the build context"


# --------------------------------------------------------------------------- docker-compose.yml


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(data, dict)
    return data


def env_of(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {key: str(value) for key, value in env.items()}


def test_compose_spec_without_version(compose: dict[str, Any]) -> None:
    assert "version" not in compose, "the Compose spec has no `version:`"
    assert set(compose["services"]) >= {"db", "app"}


def test_db_service(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]
    assert db["image"] == "postgres:16-alpine"
    env = env_of(db)
    assert env["POSTGRES_USER"] == env["POSTGRES_PASSWORD"] == env["POSTGRES_DB"] == "bordet"
    mounts = [m if isinstance(m, str) else f"{m['source']}:{m['target']}" for m in db["volumes"]]
    data_mounts = [m for m in mounts if m.split(":")[1] == "/var/lib/postgresql/data"]
    assert data_mounts, "the database files are not on a volume"
    volume = data_mounts[0].split(":")[0]
    assert "/" not in volume and volume in (compose.get("volumes") or {}), "use a named volume"
    test = db["healthcheck"]["test"]
    assert "pg_isready" in (test if isinstance(test, str) else " ".join(test))
    assert "ports" not in db, "the database needs no published port"


def test_app_service(compose: dict[str, Any]) -> None:
    app = compose["services"]["app"]
    build = app["build"]
    assert (build if isinstance(build, str) else build.get("context", ".")) in (".", "./")
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["restart"] == "unless-stopped"
    assert "8000:8000" in [str(p) for p in app["ports"]]
    env = env_of(app)
    assert env["DATABASE_URL"] == "postgresql://bordet:bordet@db:5432/bordet"
    assert re.fullmatch(r"\$\{BORDET_SECRET:\?[^}]+\}", env["BORDET_SECRET"]), (
        "BORDET_SECRET must be required"
    )
    test = app["healthcheck"]["test"]
    assert HEALTH_URL in (test if isinstance(test, str) else " ".join(test))


def test_app_database_url_matches_db_service(compose: dict[str, Any]) -> None:
    db_env = env_of(compose["services"]["db"])
    url = env_of(compose["services"]["app"])["DATABASE_URL"]
    match = re.fullmatch(r"postgresql://([^:]+):([^@]+)@([^:/]+):5432/(\w+)", url)
    assert match, url
    user, password, host, name = match.groups()
    assert (user, password, name) == (
        db_env["POSTGRES_USER"],
        db_env["POSTGRES_PASSWORD"],
        db_env["POSTGRES_DB"],
    )
    assert host == "db"


def test_app_trusts_forwarded_headers_only_from_its_network_gateway(compose: dict[str, Any]) -> None:
    """Per-address limits count the address the host's proxy reports, and only the proxy's."""
    trusted = env_of(compose["services"]["app"])["BORDET_TRUSTED_PROXIES"]
    match = re.fullmatch(r"\$\{BORDET_TRUSTED_PROXIES:-([^}]+)\}", trusted)
    assert match, "BORDET_TRUSTED_PROXIES must default to the proxy's address and stay overridable"
    (network,) = compose["networks"]["default"]["ipam"]["config"]
    assert match.group(1) == network["gateway"]
    assert ipaddress.ip_address(network["gateway"]) in ipaddress.ip_network(network["subnet"])


def test_the_entrypoint_gives_uvicorn_the_same_trusted_proxies(
    dockerfile: list[Instruction], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "calls.log"
    (bindir / "alembic").write_text("#!/bin/sh\n")
    (bindir / "uvicorn").write_text('#!/bin/sh\necho "$FORWARDED_ALLOW_IPS" >> "$CALLS_LOG"\n')
    for script in bindir.iterdir():
        script.chmod(0o755)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert run_entrypoint(dockerfile, bindir, log, BORDET_TRUSTED_PROXIES="172.30.0.1") == 0
    assert log.read_text().splitlines() == ["172.30.0.1"]


def test_app_healthcheck_runs(compose: dict[str, Any]) -> None:
    test = compose["services"]["app"]["healthcheck"]["test"]
    assert isinstance(test, list) and test[0] == "CMD", "use the exec form: the image has no curl"
    assert run_health_command(test[1:], 200) == 0
    assert run_health_command(test[1:], None) == 1


def compose_cli() -> list[str]:
    """`docker compose` (plugin) or a v2 `docker-compose`, else skip with the reason."""
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True, text=True, timeout=60)
        if probe.returncode == 0:
            return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    if standalone:
        probe = subprocess.run([standalone, "version", "--short"], capture_output=True, text=True, timeout=60)
        if probe.returncode == 0 and re.match(r"v?[2-9]\.", probe.stdout.strip()):
            return [standalone]
    if not docker:
        pytest.skip("the docker CLI is not installed")
    pytest.skip("the docker CLI has no compose plugin (`docker compose version` fails)")


def run_compose_config(env_file: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("BORDET_SECRET", "COMPOSE_FILE")}
    done = subprocess.run(
        [*compose_cli(), "--env-file", str(env_file), "-f", str(COMPOSE), "config", "-q"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**base, **env},
        timeout=120,
    )
    if done.returncode != 0 and re.search(r"daemon|docker\.sock", done.stderr, re.IGNORECASE):
        pytest.skip(f"docker compose wants a Docker daemon here: {done.stderr.strip()[:200]}")
    return done


def test_docker_compose_config_validates(tmp_path: Path) -> None:
    empty = tmp_path / "empty.env"
    empty.write_text("")
    done = run_compose_config(empty, BORDET_SECRET="test-secret-not-for-production")
    assert done.returncode == 0, done.stderr
    missing = run_compose_config(empty)
    assert missing.returncode != 0 and "set BORDET_SECRET" in missing.stderr, missing.stderr


DEV_TOOLS = ("pytest", "pytest-asyncio", "mypy", "ruff", "playwright")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(path: Path) -> dict[str, str]:
    """Package name (PEP 503 normalised) -> pinned version, with those of the locks it includes."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    pins: dict[str, str] = {}
    for included in _included(path):
        pins.update(_pins(included))
    for line in lines:
        if line and not line.startswith(("#", "-r ")):
            name, version = line.split("==", 1)
            pins[_normal(name)] = version
    return pins


def _included(path: Path) -> list[Path]:
    """The locks ``path`` includes (its ``-r`` lines)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [path.parent / line.removeprefix("-r ").strip() for line in lines if line.startswith("-r ")]


def _own_pins(path: Path) -> set[str]:
    inherited = {name for included in _included(path) for name in _pins(included)}
    return set(_pins(path)) - inherited


def test_the_image_lock_holds_no_dev_tool() -> None:
    runtime = set(_pins(ROOT / "requirements.lock"))
    assert runtime, "requirements.lock is empty"
    assert not runtime & set(DEV_TOOLS), sorted(runtime & set(DEV_TOOLS))


def test_the_dev_lock_adds_the_tools_to_the_runtime_and_compiler_locks() -> None:
    assert "-r requirements.lock" in (ROOT / "requirements-native.lock").read_text().splitlines()
    assert "-r requirements-native.lock" in (ROOT / "requirements-dev.lock").read_text().splitlines()
    dev = _pins(ROOT / "requirements-dev.lock")
    assert set(DEV_TOOLS) <= set(dev)
    assert {"mypy", "setuptools"} <= _own_pins(ROOT / "requirements-native.lock")
    for lock in ("requirements-dev.lock", "requirements-native.lock"):
        text = (ROOT / lock).read_text(encoding="utf-8").splitlines()
        names = [_normal(line.split("==")[0]) for line in text if "==" in line]
        assert len(names) == len(set(names)), f"{lock} pins a package twice"
        assert not _own_pins(ROOT / lock) & set(_pins(ROOT / "requirements.lock")), (
            f"{lock} repins the runtime"
        )


def test_every_declared_dependency_is_pinned_in_its_lock() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = _pins(ROOT / "requirements.lock")
    dev = _pins(ROOT / "requirements-dev.lock")  # with the locks it includes
    for requirements, lock, pins in (
        (project["dependencies"], "requirements.lock", runtime),
        (project["optional-dependencies"]["dev"], "requirements-dev.lock", dev),
    ):
        for requirement in requirements:
            name, version = re.sub(r"\[.*\]", "", requirement).split("==")
            assert pins.get(_normal(name)) == version, f"{requirement} is not pinned in {lock}"


def test_the_dev_lock_stays_out_of_the_image(dockerfile: list[Instruction]) -> None:
    sources = {source for sources, _ in copies(dockerfile) for source in sources}
    assert "requirements-dev.lock" not in sources
    # The compiler is the builder stage's alone.
    final_sources = {source for sources, _ in copies(final_stage(dockerfile)) for source in sources}
    assert "requirements-native.lock" not in final_sources
