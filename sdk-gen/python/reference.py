"""Prints the Python SDK's per-method reference as Markdown, from its signatures and docstrings.

Run by ``npm run gen:sdk`` (sdk-gen/python/generateReference.ts), which writes the output to
docs/sdk/python.md. It starts from the names ``cubicle`` exports and follows the classes their
methods and attributes return, so a resource is documented as soon as the client exposes it.
"""

from __future__ import annotations

import inspect
import sys
import typing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import cubicle  # noqa: E402
from cubicle import errors  # noqa: E402


def _is_surface(value: object) -> bool:
    return (
        inspect.isclass(value)
        and value.__module__.startswith("cubicle.lib")
        and not issubclass(value, BaseException)
    )


def _referenced(cls: type) -> list[type]:
    """Classes of the SDK's surface that `cls` hands out: attribute types and return types."""
    found: list[type] = []
    hints: dict[str, object] = {}
    try:
        hints.update(typing.get_type_hints(cls))
    except Exception:
        pass
    for name, member in inspect.getmembers(cls):
        if name.startswith("_") and name != "__call__":
            continue
        target = member.fget if isinstance(member, property) else member
        if callable(target):
            try:
                for argument, hint in typing.get_type_hints(target).items():
                    hints[f"{name}({argument})"] = hint
            except Exception:
                pass
    for hint in hints.values():
        for candidate in (hint, *typing.get_args(hint)):
            if _is_surface(candidate) and candidate not in found:
                found.append(candidate)  # type: ignore[arg-type]
    return found


def _surface() -> list[type]:
    queue = [getattr(cubicle, name) for name in cubicle.__all__ if _is_surface(getattr(cubicle, name, None))]
    seen: list[type] = []
    while queue:
        cls = queue.pop(0)
        if cls in seen:
            continue
        seen.append(cls)
        queue.extend(_referenced(cls))
    return seen


def _doc(obj: object) -> str:
    return inspect.cleandoc(obj.__doc__) if obj.__doc__ else ""


def _fields(cls: type) -> list[str]:
    """A TypedDict's keys and their types, the required ones marked."""
    lines = ["| key | type |", "|---|---|"]
    for key, hint in typing.get_type_hints(cls, include_extras=True).items():
        required = typing.get_origin(hint) is typing.Required
        shown = typing.get_args(hint)[0] if required else hint
        name = f"`{key}`" + (" (required)" if required else "")
        lines.append(f"| {name} | `{_type_name(shown)}` |")
    return [*lines, ""]


def _type_name(hint: object) -> str:
    text = hint.__name__ if inspect.isclass(hint) and not typing.get_args(hint) else repr(hint)
    return text.replace("typing.", "").replace("cubicle._generated.models.", "")


def _methods(cls: type) -> list[str]:
    if typing.is_typeddict(cls):
        return _fields(cls)
    lines: list[str] = []
    for name, member in cls.__dict__.items():
        if name.startswith("_") and name != "__call__":
            continue
        if isinstance(member, property):
            lines += [f"#### `{cls.__name__}.{name}` (property)", "", _doc(member), ""]
        elif inspect.isfunction(member):
            signature = str(inspect.signature(member)).replace("(self, ", "(").replace("(self)", "()")
            lines += [f"#### `{cls.__name__}.{name}{signature}`", "", _doc(member), ""]
    return lines


def _errors() -> list[str]:
    lines = ["## Errors", "", _doc(errors), "", "| class | extends | status | code |", "|---|---|---|---|"]
    for name in errors.__all__:
        cls = getattr(errors, name)
        if not (inspect.isclass(cls) and issubclass(cls, BaseException)):
            continue
        parent = cls.__mro__[1].__name__
        status = getattr(cls, "status", "") if "status" in cls.__dict__ else ""
        code = getattr(cls, "code", "") if "code" in cls.__dict__ else ""
        lines.append(f"| `{name}` | `{parent}` | {status or ''} | {f'`{code}`' if code else ''} |")
    return lines


def main() -> None:
    out = ["# cubicle (Python)", "", _doc(cubicle), ""]
    for cls in _surface():
        out += [f"### class `{cls.__name__}`", "", _doc(cls), ""]
        out += _methods(cls)
    out += _errors()
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    sys.stdout.write(text.rstrip() + "\n")


main()
