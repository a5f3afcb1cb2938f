"""Checking request bodies against Discord's published OpenAPI description of its HTTP API.

The description is ``discord-api-spec/openapi.json`` in the shared folder beside the repository
(Discord's own file, API v10; see its README). Each request body is validated with ``jsonschema``
(JSON Schema 2020-12, with format checks such as ``uri`` and ``date-time``) against the schema of
its route and method; ``payload_json`` of a multipart request is checked like a JSON body.

A body is first checked by ``jsonschema_rs`` (the same schema and formats, compiled: a few
microseconds where ``jsonschema`` takes a millisecond or more, which under load was half the
emulator's CPU); only a body it rejects goes through ``jsonschema``, whose errors say what
is wrong (``explain``). Should the two ever disagree on a rejected body, the compiled
check's own message is reported, so no rejection is lost.

One deliberate difference, from the description's README: Discord takes snowflake ids as JSON
integers too (discord.py sends attachment ids, allowed-mention user ids and DM recipient ids so),
so ``SnowflakeType`` accepts a non-negative integer besides its numeric string.

Limits Discord documents but the schema cannot express (or states more loosely) are checked by
``server.check_message``: content at most 2,000 characters (the schema allows 4,000 on a channel
post), 6,000 characters per embed, a custom id used once per message, a message with something in
it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import urllib.parse
from pathlib import Path
from typing import Any

try:
    import jsonschema
    import jsonschema_rs
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError as e:  # pragma: no cover - an environment set up before the check existed
    raise ImportError(f"{e}: the Discord emulator needs the test extras: pip install -e '.[test]'") from e

SPEC_URI = "urn:discord-openapi"
API_PREFIX = "/api/v10"


def spec_path() -> Path | None:
    """Where the description is: ``TABULA_DISCORD_OPENAPI`` or the shared folder beside the
    repository (``../shared/discord-api-spec/openapi.json``, then ``/work/shared/...``)."""
    env = os.environ.get("TABULA_DISCORD_OPENAPI")
    candidates = [Path(env)] if env else []
    repo = Path(__file__).resolve().parents[2]
    candidates += [
        repo.parent / "shared" / "discord-api-spec" / "openapi.json",
        Path("/work/shared/discord-api-spec/openapi.json"),
    ]
    return next((p for p in candidates if p.is_file()), None)


class OpenAPIChecker:
    """Validates request bodies against the description: ``errors(method, path, body)``."""

    def __init__(self, spec: dict[str, Any]) -> None:
        schemas = spec["components"]["schemas"]
        snowflake = schemas["SnowflakeType"]
        schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
        self.spec = spec
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self.registry: Registry = Registry().with_resource(SPEC_URI, resource)
        self.format_checker = Draft202012Validator.FORMAT_CHECKER
        self.routes: list[tuple[re.Pattern[str], str]] = []
        for path in sorted(spec["paths"], key=lambda p: (p.count("{"), -len(p))):
            rx = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"
            self.routes.append((re.compile(rx), path))

    def route(self, path: str) -> str | None:
        """The description's path template for a request path (``/api/v10/...``)."""
        path = path.removeprefix(API_PREFIX)
        return next((template for rx, template in self.routes if rx.match(path)), None)

    def _pointer(self, method: str, template: str) -> str | None:
        """The JSON pointer of the JSON request body's schema of ``method template``, or None
        when the description has no such body."""
        op = self.spec["paths"].get(template, {}).get(method.lower())
        if op is None or "requestBody" not in op:
            return None
        if "application/json" not in op["requestBody"].get("content", {}):
            return None
        return "/".join(
            part.replace("~", "~0").replace("/", "~1")
            for part in ("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
        )

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one checker per process
    def validator(self, method: str, template: str) -> Draft202012Validator | None:
        pointer = self._pointer(method, template)
        if pointer is None:
            return None
        return Draft202012Validator(
            {"$ref": f"{SPEC_URI}#/{pointer}"}, registry=self.registry, format_checker=self.format_checker
        )

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one checker per process
    def fast_validator(self, method: str, template: str) -> Any:
        """The compiled (``jsonschema_rs``) validator of the same schema, formats checked; its
        references resolve within the description, given as the schema's own document."""
        pointer = self._pointer(method, template)
        if pointer is None:
            return None
        fragment = "/".join(urllib.parse.quote(part, safe="~") for part in pointer.split("/"))
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": f"#/{fragment}",
                "paths": self.spec["paths"], "components": self.spec["components"]}
        return jsonschema_rs.validator_for(root, validate_formats=True)

    def errors(self, method: str, path: str, body: Any) -> list[str]:
        """What is wrong with ``body`` for ``method path`` (empty when it validates, or when
        the description has no JSON body for that route)."""
        template = self.route(path)
        if template is None:
            return []
        fast = self.fast_validator(method.upper(), template)
        if fast is None or fast.is_valid(body):
            return []
        v = self.validator(method.upper(), template)
        assert v is not None
        out = []
        for e in sorted(v.iter_errors(body), key=lambda e: [str(p) for p in e.absolute_path]):
            for leaf in explain(e):
                where = "/".join(str(p) for p in leaf.absolute_path) or "(body)"
                out.append(f"{where}: {leaf.message[:300]}")
        return out or [f"(body): {e.message[:300]}" for e in fast.iter_errors(body)]


def explain(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The errors that say what is wrong: for a value that matches no branch of a ``oneOf`` /
    ``anyOf``, the errors of the branch meant (the one whose ``type`` or other constant fits),
    else the error itself."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[int, list[jsonschema.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)

    def mismatched_kind(errs: list[jsonschema.ValidationError]) -> bool:
        return any(
            (e.validator in ("enum", "const") and list(e.relative_path)[-1:] == ["type"])
            or (e.validator == "type" and not e.relative_path)
            for e in errs
        )

    meant = [errs for errs in branches.values() if not mismatched_kind(errs)]
    if len(meant) != 1:
        return [error]
    return [leaf for e in meant[0] for leaf in explain(e)]


@functools.cache
def checker() -> OpenAPIChecker | None:
    """The process's checker, or None when the description is not found."""
    path = spec_path()
    if path is None:
        return None
    return OpenAPIChecker(json.loads(path.read_text(encoding="utf-8")))
