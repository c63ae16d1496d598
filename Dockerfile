# Bordet game server image.
#   docker build -t bordet .
#   docker compose up -d --build        (with PostgreSQL; see docker-compose.yml)
# Configuration by environment:
#   DATABASE_URL   postgresql://user:pass@host:5432/db (without it: SQLite in /app/data)
#   BORDET_SECRET  signs player tokens; set it (e.g. `openssl rand -hex 32`) and keep it

# Builder stage: the hot pure modules compiled with mypyc (app/native.py lists them and says why),
# from the same base image as the server's, so the extensions match its interpreter. Only the
# compiled app/ leaves this stage; the compiler and mypy stay behind.
FROM python:3.11-slim AS native

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build
COPY requirements.lock requirements-native.lock ./
RUN pip install -r requirements-native.lock

# mypyc reads the project's mypy settings from pyproject.toml; the build ends by importing every
# listed module and failing unless each one loads compiled.
COPY pyproject.toml ./
COPY app/ ./app/
COPY tools/native.py ./tools/native.py
RUN python tools/native.py build

FROM python:3.11-slim

# MALLOC_ARENA_MAX: glibc gives every thread (each SQLite connection has one) a malloc arena of its
# own, and memory freed in one is not reused by another; two arenas keep a long-running server flat.

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    MALLOC_ARENA_MAX=2

WORKDIR /app

# The unprivileged account the server runs as (fixed ids for predictable volume permissions).
RUN groupadd --system --gid 10001 bordet \
    && useradd --system --uid 10001 --gid bordet --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin bordet

# Pinned runtime dependencies first (tests and linters are in requirements-dev.lock, never installed
# here): this layer is reused until requirements.lock changes.
COPY requirements.lock ./
RUN pip install -r requirements.lock

# The package itself, compiled in the builder stage; its dependencies are already installed.
COPY pyproject.toml ./
COPY --from=native /build/app/ ./app/
RUN pip install --no-deps . && rm -rf build ./*.egg-info

COPY migrations/ ./migrations/
COPY alembic.ini ./
COPY static/ ./static/
COPY docker/entrypoint.sh /usr/local/bin/bordet-entrypoint

# Code stays root-owned (read-only for the server); only data/ (the SQLite fallback) is writable.
RUN chmod 0755 /usr/local/bin/bordet-entrypoint \
    && mkdir -p /app/data \
    && chown bordet:bordet /app/data

USER bordet

EXPOSE 8000

# No curl in the slim image: python's urllib fails (exit 1) on refusal, timeout or HTTP error.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"]

# The entrypoint runs `alembic upgrade head`, then execs this command as PID 1.
ENTRYPOINT ["bordet-entrypoint"]
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", \
     "--ws-per-message-deflate", "false", "--ws-max-size", "1048576"]
