"""Which refusal codes an API operation can answer, read from the code that runs it.

Words:
- a *function* is a module-level function or a method of flipwell's league app or API (its
  source read once, with `ast`), known by its module and qualified name.
- a function's *codes* are those of the refusals it makes itself (`Refusal(..., code=...)`,
  `ConflictError(..., code=...)`, ``rules_edge(..., code=...)``: `flipwell.league.refusals`),
  ``invalid`` where it makes a plain ``ValidationError`` or calls ``full_clean`` (a model's
  validators), and the codes of every function it names, called or passed on, found through
  its module's imports (``services.start_meet`` -> the service, through the package's
  re-exports).

An operation's codes are its view's: the OpenAPI document lists them per status
(`document_refusals`), each with its meaning from `CODES`. The reading is generous: a code of
a branch the operation never takes may be listed, a code it answers is never left out (the
walking test, tests/api/test_refusal_codes.py, holds every service's codes to it).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import flipwell
from flipwell.league.refusals import CODES, Code

PLAIN = "invalid"
"""The code of a plain ValidationError (a model's or a validator's refusal)."""
OTHER_ERRORS = {"ValidationError": PLAIN, "full_clean": PLAIN, "PlayersCsvError": "invalid_csv"}
"""Calls that refuse with a code the API gives them (`flipwell.api.errors`), by name."""
API_CODES = {
    PLAIN: Code(422, "A value a model's validators refuse (a length, a format)."),
    "invalid_csv": Code(422, "A row of the uploaded CSV is not valid; nothing was imported."),
}
REFUSING = {"Refusal": 422, "ConflictError": 409, "rules_edge": 422}
"""The names whose call with a ``code=`` refuses (`rules_edge` with ``conflict=True``: 409)."""
_PACKAGES = ("flipwell.league", "flipwell.api")
_SKIPPED = ("migrations", "management")

Key = tuple[str, str]
"""A function: (module, qualified name)."""


@dataclass
class Function:
    """What one function refuses itself, and what it names."""

    codes: set[str] = field(default_factory=set)
    names: set[Key] = field(default_factory=set)


@dataclass
class Module:
    """A module's functions (by qualified name) and the names it imports."""

    functions: dict[str, Function] = field(default_factory=dict)
    imports: dict[str, Key] = field(default_factory=dict)
    """A name -> (module, its name there); a module imported whole has the name ``""``."""


def literal_codes(call: ast.Call) -> list[str] | None:
    """The codes a refusing call's ``code=`` gives (a literal, or ``a if x else b``); None
    when it gives none it writes out."""
    given = next((k.value for k in call.keywords if k.arg == "code"), None)
    if given is None:
        return None
    options = [given.body, given.orelse] if isinstance(given, ast.IfExp) else [given]
    codes = [o.value for o in options if isinstance(o, ast.Constant)]
    texts = [c for c in codes if isinstance(c, str)]
    return texts if len(texts) == len(options) else None


def called_name(call: ast.Call) -> str | None:
    """The name a call calls: ``f`` of ``f(...)`` or of ``x.f(...)``."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _module_names() -> Iterator[tuple[str, Path]]:
    root = Path(flipwell.__file__).parent
    for package in _PACKAGES:
        folder = root / package.removeprefix("flipwell.")
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(root.parent).with_suffix("").parts
            if any(part in _SKIPPED for part in parts):
                continue
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _imports(tree: ast.Module, name: str, modules: set[str]) -> dict[str, Key]:
    imports: dict[str, Key] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                target = (whole, "") if whole in modules else (node.module, alias.name)
                imports[alias.asname or alias.name] = target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                imports[alias.asname or alias.name] = (alias.name, "")
    return imports


def _read(source: str, name: str, modules: set[str]) -> Module:
    tree = ast.parse(source)
    module = Module(imports=_imports(tree, name, modules))
    local = {
        n.name
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    methods: dict[str, list[str]] = {}  # a method's name -> its qualified names here
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods.setdefault(item.name, []).append(f"{node.name}.{item.name}")
    context = _Context(name, module, local, methods)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            module.functions[node.name] = _function(node, context)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    module.functions[f"{node.name}.{item.name}"] = _function(item, context)
    return module


@dataclass(frozen=True)
class _Context:
    name: str
    module: Module
    local: set[str]
    methods: dict[str, list[str]]


def _function(node: ast.AST, context: _Context) -> Function:
    """A function's own refusals and the functions it names: a name of its module or
    imported, a module's attribute, or any method of its module's classes by that name (an
    object's method: ``write.finish()``)."""
    found = Function()
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            _call(child, found)
        elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
            if child.id in context.local:
                found.names.add((context.name, child.id))
            elif child.id in context.module.imports:
                found.names.add(context.module.imports[child.id])
        elif isinstance(child, ast.Attribute):
            owner = child.value.id if isinstance(child.value, ast.Name) else ""
            target = context.module.imports.get(owner)
            if target is not None and target[1] == "":
                found.names.add((target[0], child.attr))
            found.names |= {(context.name, q) for q in context.methods.get(child.attr, ())}
    return found


def _call(call: ast.Call, found: Function) -> None:
    name = called_name(call)
    if name in REFUSING:
        found.codes.update(literal_codes(call) or ())  # none: tests/api/test_refusal_codes.py
    elif name in OTHER_ERRORS:
        found.codes.add(OTHER_ERRORS[name])


@cache
def modules() -> dict[str, Module]:
    """Every module of the league app and the API, read (once)."""
    names = dict(_module_names())
    return {
        name: _read(path.read_text(encoding="utf-8"), name, set(names))
        for name, path in names.items()
    }


def resolve(key: Key, seen: frozenset[Key] = frozenset()) -> Key | None:
    """The function `key` names, through its module's imports (a package's re-exports)."""
    module = modules().get(key[0])
    if module is None or key in seen:
        return None
    if key[1] in module.functions:
        return key
    if key[1] in module.imports:
        return resolve(module.imports[key[1]], seen | {key})
    return None


@cache
def codes_of(module: str, qualname: str) -> frozenset[str]:
    """Every code the function can refuse with, through every function it names."""
    found: set[str] = set()
    todo, seen = [(module, qualname)], set[Key]()
    while todo:
        key = resolve(todo.pop())
        if key is None or key in seen:
            continue
        seen.add(key)
        function = modules()[key[0]].functions[key[1]]
        found |= function.codes
        todo.extend(function.names)
    return frozenset(found)


def view_codes(view: Callable[..., Any]) -> frozenset[str]:
    """The codes an operation's view can refuse with (a view made inside a function, one per
    kind, is read as that function)."""
    view = inspect.unwrap(view)
    return codes_of(view.__module__, view.__qualname__.split(".<locals>")[0])


TRANSPORT: dict[int, dict[str, str]] = {
    400: {"malformed": "The body is not JSON, or a header is malformed."},
    401: {"not_authenticated": "No valid API token was sent."},
    403: {"forbidden": "The token or account may not do this."},
    404: {"not_found": "Nothing at this path, or no such thing."},
    409: {},
    413: {"too_large": "The request body is too large."},
    415: {"unsupported_media_type": "The body is not sent as JSON."},
    422: {"invalid_input": "The input does not fit the request's schema."},
}
"""The codes any operation may answer, by status, whatever its services refuse."""
WRITE_CODES = {409: {"idempotency_key_reused": CODES["idempotency_key_reused"].meaning}}
"""The codes of every write (the Idempotency-Key header)."""


def operation_codes(view: Callable[..., Any], *, write: bool) -> dict[int, dict[str, str]]:
    """Status -> code -> meaning, for every code the operation of `view` can answer."""
    answers = {status: dict(codes) for status, codes in TRANSPORT.items()}
    if write:
        for status, codes in WRITE_CODES.items():
            answers[status].update(codes)
    for code in sorted(view_codes(view)):
        known = CODES.get(code) or API_CODES.get(code)
        status, meaning = (known.status, known.meaning) if known else (422, "")
        answers.setdefault(status, {})[code] = meaning
    return answers


def document_refusals(
    schema: MutableMapping[str, Any], views: dict[str, Callable[..., Any]], error_ref: str
) -> None:
    """List each operation's codes in the OpenAPI `schema` (`views`: operationId -> view):
    every error status answers the error shape with its ``code`` one of them, each code's
    meaning in the status's description. A status with no code is left out."""
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            view = views.get(operation.get("operationId", ""))
            if view is None:
                continue
            write = method.upper() in ("POST", "PUT", "PATCH", "DELETE")
            answers = operation_codes(view, write=write)
            responses = operation.setdefault("responses", {})
            for status in list(responses):
                codes = answers.get(int(status)) if str(status).isdigit() else None
                if codes is None:
                    continue
                if not codes:
                    del responses[status]
                    continue
                responses[status] = _response(codes, error_ref, responses[status])


def _response(codes: dict[str, str], error_ref: str, response: dict[str, Any]) -> dict[str, Any]:
    listed = "; ".join(
        f"`{code}`: {meaning}" if meaning else f"`{code}`" for code, meaning in codes.items()
    )
    schema = {
        "allOf": [
            {"$ref": error_ref},
            {
                "type": "object",
                "properties": {
                    "error": {
                        "type": "object",
                        "properties": {"code": {"type": "string", "enum": sorted(codes)}},
                    }
                },
            },
        ]
    }
    return {
        **response,
        "description": f"Error codes: {listed}",
        "content": {"application/json": {"schema": schema}},
    }
