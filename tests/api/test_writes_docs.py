"""The schema documents every operation, parameter and field (the writes included)."""

from __future__ import annotations

from flipwell.api.api import api


def test_every_field_parameter_and_operation_is_documented():
    schema = api.get_openapi_schema()
    undocumented = [
        f"{name}.{field}"
        for name, component in schema["components"]["schemas"].items()
        for field, spec in component.get("properties", {}).items()
        if not spec.get("description")
    ]
    undocumented += [
        f"{method.upper()} {path} {param['name']}"
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        for param in operation.get("parameters", [])
        if not param.get("description")
    ]
    undocumented += [
        f"{method.upper()} {path}"
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if not operation.get("description")
    ]

    assert undocumented == []
