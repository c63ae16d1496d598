"""The OpenAPI document the real server publishes describes every HTTP route of app/api.

The routes are taken from ``create_app()`` (with the test clock on, as the test
server runs); the document is fetched from the running server's ``/openapi.json``.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.routing import BaseRoute

from app.config import Settings
from app.main import create_app
from tests.integration.server import ServerProcess

Json = dict[str, Any]
REF_PREFIX = "#/components/schemas/"


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    route: APIRoute

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}"


def _walk(routes: list[BaseRoute], prefix: str = "") -> Iterator[tuple[str, APIRoute]]:
    """The app's HTTP routes with their full paths, through included routers (however FastAPI keeps them)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield prefix + route.path, route
            continue
        included = getattr(route, "original_router", None)  # FastAPI >= 0.16x keeps included routers
        if included is not None:
            context = getattr(route, "include_context", None)
            yield from _walk(included.routes, prefix + (getattr(context, "prefix", "") or ""))


def api_operations() -> list[Operation]:
    app = create_app(Settings(test_clock=True))
    ops = [
        Operation(method, path, route)
        for path, route in _walk(app.routes)
        if route.endpoint.__module__.startswith("app.api.")
        for method in sorted((route.methods or set()) - {"HEAD", "OPTIONS"})
    ]
    assert ops, "no routes of app/api found in create_app()"
    return ops


OPERATIONS = api_operations()

# Every error each route can answer with (from app/api, app/rooms and the validation handler).
ERRORS: dict[str, set[int]] = {
    "POST /api/players": {422, 429},
    "GET /api/players/me": {401},
    "GET /api/games": set(),
    "GET /api/health": {503},
    "POST /api/rooms": {401, 409, 422, 429, 503},
    "GET /api/rooms": {422},
    "GET /api/rooms/{code}": {404},
    "PATCH /api/rooms/{code}": {401, 403, 404, 409, 422, 503},
    "POST /api/rooms/{code}/seats": {401, 404, 409, 422, 503},
    "POST /api/rooms/{code}/watch": {401, 404, 409, 503},
    "POST /api/rooms/{code}/leave": {401, 404, 503},
    "POST /api/rooms/{code}/start": {401, 403, 404, 409, 422, 503},
    "DELETE /api/rooms/{code}/members/{player_id}": {401, 403, 404, 409, 503},
    "POST /api/rooms/{code}/bots": {401, 403, 404, 409, 422, 503},
    "PUT /api/rooms/{code}/teams": {401, 403, 404, 409, 422, 503},
    "POST /api/rooms/{code}/end": {401, 403, 404, 409, 503},
    "POST /api/rooms/{code}/end-game": {401, 403, 404, 409, 503},
    "POST /api/_test/clock": {404, 409, 422},
    "POST /api/_test/seed": {404, 409, 422},
    "GET /api/_test/rooms/{code}/clock": {404},
}


@pytest.fixture(scope="module")
def openapi(server: ServerProcess) -> Json:
    r = httpx.get(f"{server.http}/openapi.json", timeout=10)
    assert r.status_code == 200, r.text
    doc: Json = r.json()
    return doc


def operation(doc: Json, op: Operation) -> Json:
    path_item = doc["paths"].get(op.path)
    assert path_item is not None, f"{op.path} is not in /openapi.json"
    found: Json | None = path_item.get(op.method.lower())
    assert found is not None, f"{op.id} is not in /openapi.json"
    return found


def resolve(doc: Json, schema: Json) -> Json:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    assert ref.startswith(REF_PREFIX), ref
    name = ref.removeprefix(REF_PREFIX)
    assert name in doc["components"]["schemas"], f"dangling $ref {ref}"
    resolved: Json = doc["components"]["schemas"][name]
    return resolved


def body_model(op: Operation) -> type[BaseModel] | None:
    """The pydantic model the endpoint takes as its JSON body, read from its signature."""
    hints = typing.get_type_hints(op.route.endpoint, include_extras=True)
    hints.pop("return", None)
    bare = [typing.get_args(h)[0] if typing.get_origin(h) is typing.Annotated else h for h in hints.values()]
    models = [h for h in bare if isinstance(h, type) and issubclass(h, BaseModel)]
    assert len(models) <= 1, models
    return models[0] if models else None


def test_the_route_table_covers_every_module_of_app_api() -> None:
    modules = {op.route.endpoint.__module__ for op in OPERATIONS}
    assert modules == {
        "app.api.players",
        "app.api.games",
        "app.api.rooms",
        "app.api.health",
        "app.api.testing",
    }
    assert {op.id for op in OPERATIONS} == set(ERRORS), "ERRORS in this file must list every route"


def test_openapi_lists_every_http_route_of_the_api(openapi: Json) -> None:
    documented = {
        f"{method.upper()} {path}"
        for path, item in openapi["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }
    assert {op.id for op in OPERATIONS} <= documented
    api_paths = {p for p in documented if p.split(" ", 1)[1].startswith("/api/")}
    assert api_paths == {op.id for op in OPERATIONS}, "a documented /api route that app/api does not serve"


def test_openapi_has_unique_operation_ids(openapi: Json) -> None:
    ids = [
        o["operationId"] for item in openapi["paths"].values() for o in item.values() if "operationId" in o
    ]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.id)
def test_json_success_responses_have_a_response_model(openapi: Json, op: Operation) -> None:
    responses = operation(openapi, op)["responses"]
    success = {code: r for code, r in responses.items() if code.startswith("2")}
    assert len(success) == 1, f"{op.id}: expected one success response, got {sorted(success)}"
    ((code, response),) = success.items()
    expected = op.route.status_code or 200
    assert int(code) == expected, f"{op.id}: documents {code}, answers {expected}"
    if code == "204":
        assert not response.get("content", {}).get("application/json", {}).get("schema"), (
            f"{op.id}: a 204 has no body"
        )
        return
    schema = response["content"]["application/json"]["schema"]
    if schema.get("type") == "array":
        schema = schema["items"]
    assert "$ref" in schema, f"{op.id}: the {code} response has no model: {schema}"
    model = resolve(openapi, schema)
    assert model.get("properties"), f"{op.id}: the {code} response model has no fields"
    response_model = op.route.response_model
    inner = typing.get_args(response_model)[0] if typing.get_args(response_model) else response_model
    assert schema["$ref"] == REF_PREFIX + inner.__name__


@pytest.mark.parametrize(
    "op", [op for op in OPERATIONS if op.method in {"POST", "PATCH"}], ids=lambda op: op.id
)
def test_routes_that_take_a_body_document_its_schema(openapi: Json, op: Operation) -> None:
    doc = operation(openapi, op)
    model = body_model(op)
    if model is None:
        assert "requestBody" not in doc, f"{op.id} takes no body but documents one"
        return
    assert "requestBody" in doc, f"{op.id} takes a {model.__name__} body that is not documented"
    schema = doc["requestBody"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": REF_PREFIX + model.__name__}
    documented = resolve(openapi, schema)
    assert set(documented["properties"]) == set(model.model_fields)
    assert documented.get("additionalProperties") is not True


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.id)
def test_routes_document_the_errors_they_answer_with(openapi: Json, op: Operation) -> None:
    """Every error body is ``{"code", "message"}``: each error a route can send is documented so."""
    responses = operation(openapi, op)["responses"]
    missing = sorted(str(s) for s in ERRORS[op.id] if str(s) not in responses)
    assert not missing, f"APP BUG: {op.id} answers with {missing} but does not document it"
    for status in sorted(ERRORS[op.id]):
        schema = resolve(openapi, responses[str(status)]["content"]["application/json"]["schema"])
        fields = set(schema.get("properties", {}))
        assert {"code", "message"} <= fields, (
            f"APP BUG: {op.id} documents its {status} body as {schema.get('title')} with fields "
            f"{sorted(fields)}, but the server sends {{'code', 'message', ...}}"
        )


def test_the_error_schema_requires_a_code_and_a_message(openapi: Json) -> None:
    error = openapi["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) == {"code", "message"}
    assert error["properties"]["code"]["type"] == "string"
    assert error["properties"]["message"]["type"] == "string"
