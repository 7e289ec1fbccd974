"""A tiny name -> object registry shared by rules, reporters, exporters and commands."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """Objects registered by name; `package` modules are imported on first use."""

    def __init__(self, kind: str, package: str | None = None) -> None:
        self.kind = kind
        self._package = package
        self._items: dict[str, T] = {}
        self._loaded = package is None

    def add(self, name: str, item: T) -> T:
        if name in self._items:
            raise ValueError(f"{self.kind} {name!r} registered twice")
        self._items[name] = item
        return item

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        self._import_all(self._package)  # type: ignore[arg-type]

    def _import_all(self, package: str) -> None:
        """Every public module of `package`, and of its public sub-packages (exporters/qti/ ...)."""
        pkg = importlib.import_module(package)
        for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if mod.name.startswith("_"):
                continue
            if mod.ispkg:
                self._import_all(f"{package}.{mod.name}")
            else:
                importlib.import_module(f"{package}.{mod.name}")

    def get(self, name: str) -> T:
        self._load()
        try:
            return self._items[name]
        except KeyError:
            raise KeyError(f"unknown {self.kind} {name!r}; choose from: {', '.join(self.names())}") from None

    def registered(self, name: str) -> T:
        """An item already registered (its module imported by the caller), importing nothing else."""
        return self._items[name]

    def __contains__(self, name: str) -> bool:
        self._load()
        return name in self._items

    def names(self) -> list[str]:
        self._load()
        return sorted(self._items)

    def items(self) -> Iterator[tuple[str, T]]:
        self._load()
        return iter(sorted(self._items.items()))
