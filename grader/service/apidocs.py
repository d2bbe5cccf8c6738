"""``/docs``: the API described from the OpenAPI schema, as plain server-rendered HTML.

FastAPI's own ``/docs`` is Swagger UI, whose script and CSS come from a CDN: offline,
or behind a strict network, the page stays blank. No Swagger UI assets are installed
with the service, so ``/docs`` is this page instead: every operation with its summary,
its body fields (type, bounds, what they mean) and its answers, built from the same
``app.openapi()`` that ``/openapi.json`` serves; no script, nothing fetched elsewhere.
"""

from __future__ import annotations

import json
from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")


def operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Each operation of the schema laid out for the page, in the schema's order."""
    out = []
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            body, media = _body(schema, op)
            out.append({
                "id": f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", ""),
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "description": op.get("description", ""), "tag": (op.get("tags") or [""])[0],
                "params": [_field(p.get("name", ""), p.get("schema", {}), schema,
                                  p.get("required", False), p.get("in", ""))
                           for p in op.get("parameters", [])],
                "body": body, "media": media,
                "responses": [(code, r.get("description", ""))
                              for code, r in op.get("responses", {}).items()
                              if code.startswith("2")],
                "errors": [code for code in op.get("responses", {}) if code[:1] in "45"],
            })
    return out


def errors(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """Every error status the operations declare, with its meaning, once."""
    seen: dict[str, str] = {}
    for item in schema.get("paths", {}).values():
        for method in METHODS:
            for code, r in ((item.get(method) or {}).get("responses") or {}).items():
                if code[:1] in "45" and code not in seen:
                    seen[code] = r.get("description", "")
    return sorted(seen.items())


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if not ref:
        return node
    name = ref.rsplit("/", 1)[-1]
    return schema.get("components", {}).get("schemas", {}).get(name, {})


def _body(schema: dict[str, Any], op: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    content = (op.get("requestBody") or {}).get("content") or {}
    for media, spec in content.items():
        model = _resolve(schema, spec.get("schema") or {})
        required = set(model.get("required", []))
        return [_field(name, prop, schema, name in required)
                for name, prop in (model.get("properties") or {}).items()], media
    return [], ""


def _field(name: str, prop: dict[str, Any], schema: dict[str, Any], required: bool,
           where: str = "body") -> dict[str, Any]:
    options = [o for o in prop.get("anyOf", [prop]) if o.get("type") != "null"] or [prop]
    types, bounds = [], []
    for option in options:
        types.append(_type(_resolve(schema, option) if "$ref" in option else option, option))
        bounds += _bounds(option)
    bounds += _bounds(prop) if "anyOf" in prop else []
    description = prop.get("description") or next(
        (o.get("description") for o in options if o.get("description")), "")
    default = prop.get("default")
    return {"name": name, "in": where, "type": " or ".join(dict.fromkeys(types)),
            "required": required, "description": description,
            "bounds": ", ".join(dict.fromkeys(bounds)),
            "default": None if "default" not in prop else json.dumps(default),
            "example": json.dumps(prop["examples"][0]) if prop.get("examples") else None}


def _type(resolved: dict[str, Any], option: dict[str, Any]) -> str:
    if "$ref" in option:
        return option["$ref"].rsplit("/", 1)[-1]
    kind = resolved.get("type", "any")
    if kind == "array":
        return f"list of {_type(resolved.get('items', {}), resolved.get('items', {}))}"
    extra = resolved.get("additionalProperties")
    if kind == "object" and isinstance(extra, dict) and extra.get("type") == "string":
        return "object of strings"
    if resolved.get("format") == "binary":
        return "file"
    return str(kind)


def _bounds(node: dict[str, Any]) -> list[str]:
    words = {"minimum": "≥ {}", "exclusiveMinimum": "> {}", "maximum": "≤ {}",
             "exclusiveMaximum": "< {}", "minLength": "at least {} characters",
             "maxLength": "at most {} characters", "minItems": "at least {} items",
             "maxItems": "at most {} items", "maxProperties": "at most {} entries",
             "pattern": "matching {}"}
    out = [text.format(_number(node[key])) for key, text in words.items() if key in node]
    if "enum" in node:
        out.append("one of " + ", ".join(map(str, node["enum"])))
    return out


def _number(value: Any) -> Any:
    """2.0 -> 2, 100000000.0 -> 100,000,000: bounds as people write them."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
