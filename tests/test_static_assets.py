"""The client's files over HTTP: versioned URLs cached for a year, the page always revalidated, gzip."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from app.static_assets import IMMUTABLE, Assets
from tests.integration.client import Api
from tests.integration.conftest import api, server, sqlite_url  # noqa: F401

VERSIONED = re.compile(r"""["'(]((?:\.\.?|/static)/[^"'?\s]+)\?v=([0-9a-f]{16})["')]""")


async def page(client: Api, path: str = "/r/ABCDEF", **headers: str) -> tuple[int, dict[str, str], bytes]:
    r = await client.http.get(path, headers={"Accept-Encoding": "gzip", **headers})
    return r.status_code, dict(r.headers), r.content


async def test_the_page_is_always_revalidated_and_an_unchanged_one_costs_a_304(api: Api) -> None:  # noqa: F811
    status, headers, body = await page(api)
    assert status == 200 and headers["cache-control"] == "no-cache"
    assert headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert b"/static/js/main.js?v=" in body, "the page names the scripts' versions"
    again, headers2, body2 = await page(api, "/", **{"If-None-Match": headers["etag"]})
    assert again == 304 and body2 == b"" and headers2["etag"] == headers["etag"]


async def test_every_file_the_page_names_is_versioned_immutable_and_gzipped(api: Api) -> None:  # noqa: F811
    _, _, html = await page(api)
    todo = [
        f"/static/{p}?v={v}" for p, v in re.findall(r'"/static/([^"?]+)\?v=([0-9a-f]{16})"', html.decode())
    ]
    assert any("main.js" in u for u in todo) and any("app.css" in u for u in todo)
    seen: set[str] = set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        r = await api.http.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200, url
        assert r.headers["cache-control"] == IMMUTABLE, url
        if len(r.content) > 1024:
            assert r.headers["content-encoding"] == "gzip", url
        # Every module and style the file pulls in is named with its version too.
        base = url.split("?")[0].rsplit("/", 1)[0]
        for spec, version in VERSIONED.findall(r.text):
            target = spec if spec.startswith("/static/") else f"{base}/{spec}"
            todo.append(f"{target}?v={version}")
        unversioned = re.findall(r"""\bfrom\s*["'](\.\.?/[^"'?]+)["']""", r.text)
        assert unversioned == [], f"{url} imports {unversioned} without a version"
    assert len(seen) > 10, "the module graph was followed"
    assert any("/games/" in u for u in seen), "game modules loaded with import() are versioned too"


async def test_a_file_asked_for_without_its_version_or_with_an_old_one_is_revalidated(api: Api) -> None:  # noqa: F811
    for url in ("/static/js/main.js", "/static/js/main.js?v=0000000000000000"):
        r = await api.http.get(url)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", url
        assert (await api.http.get(url, headers={"If-None-Match": r.headers["etag"]})).status_code == 304


async def test_a_client_that_does_not_take_gzip_gets_the_plain_file(api: Api) -> None:  # noqa: F811
    plain = await api.http.get("/static/js/lobby.js", headers={"Accept-Encoding": "identity"})
    packed = await api.http.get("/static/js/lobby.js", headers={"Accept-Encoding": "gzip;q=1"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < int(plain.headers["content-length"])
    assert plain.content == packed.content, "httpx decodes the gzip: the same file"


async def test_an_unknown_or_outside_path_is_a_coded_404(api: Api) -> None:  # noqa: F811
    for url in ("/static/js/nope.js", "/static/%2e%2e/pyproject.toml", "/static/js/"):
        r = await api.http.get(url)
        assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND", url


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_a_change_in_an_imported_module_changes_the_version_of_every_file_above_it(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "index.html": '<script type="module" src="/static/js/main.js"></script>',
            "js/main.js": 'import { a } from "./a.js";\nconst b = () => import("./sub/b.js");',
            "js/a.js": 'export const a = 1; import "./main.js";',  # a cycle
            "js/sub/b.js": 'import { a } from "../a.js"; loadStyle("/static/css/b.css");',
            "css/b.css": "body { color: red }",
            "js/lone.js": "export const lone = 1;",
        },
    )
    assets = Assets(tmp_path)
    before = {rel: asset.version for rel, asset in assets.files.items()}
    main = assets.files["js/main.js"].body.decode()
    assert (
        f'"./a.js?v={before["js/a.js"]}"' in main
        and f'import("./sub/b.js?v={before["js/sub/b.js"]}")' in main
    )
    assert f'"/static/css/b.css?v={before["css/b.css"]}"' in assets.files["js/sub/b.js"].body.decode()

    write(tmp_path, {"css/b.css": "body { color: blue; }"})
    assets.refresh()
    after = {rel: asset.version for rel, asset in assets.files.items()}
    changed = {rel for rel in before if before[rel] != after[rel]}
    assert changed == {"css/b.css", "js/sub/b.js", "js/main.js", "js/a.js", "index.html"}
    assert assets.files["index.html"].body.decode().count(after["js/main.js"]) == 1


def test_compressed_bodies_are_the_files_gzipped(tmp_path: Path) -> None:
    write(tmp_path, {"js/big.js": "export const x = 1;\n" * 200, "js/tiny.js": "export {};"})
    assets = Assets(tmp_path)
    big = assets.files["js/big.js"]
    assert big.gzipped is not None and gzip.decompress(big.gzipped) == big.body
    assert assets.files["js/tiny.js"].gzipped is None, "too small to be worth it"
