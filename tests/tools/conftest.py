"""The tools run against the same kind of server as the lobby API tests: one boot for the package."""

from tests.api.conftest import server  # noqa: F401
