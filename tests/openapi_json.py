"""OpenAPI 3.0 schemas as JSON Schema, for validating real answers against the served schema's components."""

from __future__ import annotations

from typing import Any


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as JSON Schema (``null`` allowed), everywhere in ``node``."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out
