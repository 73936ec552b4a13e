"""Fast makers of the core's frozen values (views, results, arrangements), made at every
decision: kept apart from what they make, a way of building objects, not a game term."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

_T = TypeVar("_T")

__all__ = ["frozen_maker"]


def frozen_maker(cls: type[_T], *names: str) -> Callable[..., _T]:
    """A fast maker of a frozen, slotted dataclass: ``make(v1, v2, ...)`` takes every field
    in order (``init=False`` ones too) and gives the same object as the class would.
    With ``names``, it fills those slots alone (a class with slots of its own beside its
    fields, filling the others when first read).

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, some
    thousand machine instructions a field, and the engine makes a view of nineteen fields
    at every decision.  The maker fills an unfrozen twin with the same slots (plain, fast
    attribute stores) and then makes it an instance of the class itself.
    """
    slots = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    if names:
        slots = tuple(getattr(cls, "__slots__", ()))
    if (getattr(cls, "__slots__", None) != slots or cls.__bases__ != (object,)
            or not set(names) <= set(slots)):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass of its own fields")
    names = names or slots
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": slots})
    space: dict[str, Any] = {"_twin": twin, "_cls": cls}
    body = "".join(f"    obj.{name} = {name}\n" for name in names)
    code = (f"def make({', '.join(names)}):\n    obj = _twin()\n{body}"
            "    obj.__class__ = _cls\n    return obj\n")
    exec(code, space)
    make: Callable[..., _T] = space["make"]
    make.__doc__ = f"A {cls.__name__} from all its fields (see frozen_maker)."
    return make
