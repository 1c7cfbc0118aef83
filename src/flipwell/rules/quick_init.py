"""Frozen result types that are built as fast as unfrozen ones (issue #10).

The rules return frozen, slotted dataclasses (STYLE rule 1): nobody can change a result
after the rules made it. The ``__init__`` that `dataclasses` writes for a frozen class sets
each field through ``object.__setattr__``, a lookup and a call per field, which made building
results about a fifth of a season's fold (4,000 of them for a 48-player season). `quick_init`
gives such a class an ``__init__`` with the same parameters that stores each field through
its slot directly. The class stays frozen: assigning a field afterwards still raises
``FrozenInstanceError``, and equality, hashing, ``repr`` and ``replace`` are the dataclass's own.

Pickling too: a stored season fold is a pickle of thousands of these (`league.results`). A
slotted dataclass pickles its state as a dict and unpickles it with ``object.__setattr__`` per
field, which made storing and loading a fold cost as much as folding it. `quick_init` gives
the class a ``__reduce__`` that pickles the field values in order and unpickles them through
the quick ``__init__``: the same object back, in a quarter of the time.

Only for the hot result types; everything else keeps the plain dataclass ``__init__``.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give frozen, slotted dataclass `cls` a faster ``__init__`` with the same signature.

    Refuses a class it cannot treat exactly like `dataclasses` does: one that is not a frozen
    dataclass with slots, or has ``__post_init__``, init-only or keyword-only fields.
    """
    params = getattr(cls, dataclasses._PARAMS)  # type: ignore[attr-defined]
    if not (dataclasses.is_dataclass(cls) and params.frozen and "__slots__" in vars(cls)):
        raise TypeError(f"quick_init needs a frozen dataclass with slots, not {cls.__name__}")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"quick_init cannot run {cls.__name__}.__post_init__")
    fields = dataclasses.fields(cls)
    if any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"quick_init needs every field of {cls.__name__} positional and in init")
    setattr(cls, "__init__", _init_for(cls, fields))  # noqa: B010  # mypy refuses cls.__init__ =
    setattr(cls, "__reduce__", _reduce_for(cls, fields))  # noqa: B010
    return cls


def _reduce_for(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """``__reduce__``: rebuild from the field values, positionally, through ``__init__``."""
    values = attrgetter(*(f.name for f in fields))
    if len(fields) == 1:  # attrgetter of one name gives the value, not a tuple
        return lambda self: (cls, (values(self),))
    return lambda self: (cls, values(self))


def _init_for(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """Write and compile the ``__init__`` (as `dataclasses` itself does, with exec)."""
    namespace: dict[str, Any] = {"_MISSING": dataclasses.MISSING}
    params, body = [], []
    for f in fields:
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's own setter
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            body.append(f"    if {f.name} is _MISSING: {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    local: dict[str, Any] = {}
    exec(source, namespace, local)  # source built above from field names only
    init = local["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
