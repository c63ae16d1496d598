#!/bin/sh
# Container entrypoint: bring the database schema up to date, then replace this shell
# with the command (the image's CMD: uvicorn), so that it is PID 1 and gets SIGTERM.
# A failed migration stops the container instead of serving an outdated schema.
# Any other command (`docker compose run app alembic current`, `sh`...) runs as given.
set -eu

if [ "${1:-}" = "uvicorn" ]; then
    alembic upgrade head
    # One list of trusted proxies: uvicorn --proxy-headers (the scheme of links) trusts the same
    # addresses as the app's client-address rule, unless FORWARDED_ALLOW_IPS is set on purpose.
    if [ -n "${BORDET_TRUSTED_PROXIES:-}" ] && [ -z "${FORWARDED_ALLOW_IPS:-}" ]; then
        export FORWARDED_ALLOW_IPS="$BORDET_TRUSTED_PROXIES"
    fi
fi

exec "$@"
