"""What a start builds from the installed code, kept between runs: the code of the
methods ``dataclasses`` writes for conteur's classes (and its libraries' pydantic and
annotated_types), and the data of the YAML files the package ships.

A command's start is mostly the creation of conteur's classes and tables. Two parts of it
give the same result at every run of the same installation:

* ``dataclasses`` writes the source of each class's ``__init__``, ``__repr__``, ``__eq__``,
  ``__hash__`` and (frozen) ``__setattr__``/``__delattr__``, and compiles it with ``exec``,
  one method at a time — about 1,100 compilations, a fifth of ``conteur odds attack``;
* the package's tables and message catalogs are parsed from YAML (libyaml builds the
  Python objects one by one).

``install()`` (run by ``import conteur``) has ``dataclasses`` compile the sources it
writes for the modules of ``CACHED_PACKAGES`` through ``compiled``: the code object
compiled from the same text is taken from the cache when it is there (the text is the
key: a changed class writes another text). ``shipped_yaml(text, parse)`` gives the data
``parse(text)`` gives, from the cache when the same text was parsed before, each call a
fresh copy (the caller may change it).

The cache is one ``marshal`` file per Python version and optimisation level, in
``CONTEUR_CACHE_DIR`` (``off`` or an empty value: no cache), else the user's cache folder
(``$XDG_CACHE_HOME/conteur``, ``~/.cache/conteur``; ``~/Library/Caches/conteur`` on macOS;
``%LOCALAPPDATA%\\conteur\\Cache`` on Windows — what ``platformdirs`` answers, without
its import, which costs a tenth of the start it would save). It is read at the first
look-up and written at the process's exit when the run compiled or parsed something it
did not hold, atomically (a temporary file renamed), keeping the entries it read unless
the file would grow past ``MAX_BYTES``. A file that cannot be read or written, or that is
not such a cache (damaged, another version), is ignored: the start is then what it was
without a cache, never an error. The cache holds nothing a user typed: only the texts of
the installed packages' classes and of conteur's shipped files. It is trusted as
``__pycache__`` is — whoever can write it can write the installation.
"""

from __future__ import annotations

import atexit
import dataclasses
import marshal
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

CACHE_ENV = "CONTEUR_CACHE_DIR"
"""The variable naming the cache's folder (``off`` or empty: no cache)."""

CACHED_PACKAGES = frozenset({"conteur", "pydantic", "annotated_types"})
"""The packages whose dataclasses' methods are compiled through the cache: conteur's, and
those of the libraries a command's start imports after ``import conteur`` (pydantic's
types and validators are dataclasses, 210 compilations of ``conteur odds attack``)."""

MAX_BYTES = 8 * 1024 * 1024
"""Past this size, the file written keeps only the entries the run used."""

_FORMAT = 1
"""The layout of the file's dict; another value is ignored as a foreign file."""

_CODE = "code"
_YAML = "yaml"


class _Store:
    """The entries read from the cache file and those this run added or used."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loaded = False
        self.enabled = True
        self.entries: dict[str, dict[str, bytes]] = {_CODE: {}, _YAML: {}}
        self.used: dict[str, set[str]] = {_CODE: set(), _YAML: set()}
        self.added = 0
        self.hits = 0
        self.unsaved = False

    def get(self, kind: str, key: str) -> bytes | None:
        with self.lock:
            if not self.loaded:
                self.loaded = True
                path = cache_file()
                self.enabled = path is not None
                self.entries = _read(path) or self.entries
            blob = self.entries[kind].get(key)
            if blob is not None:
                self.used[kind].add(key)
                self.hits += 1
            return blob

    def put(self, kind: str, key: str, blob: bytes) -> None:
        with self.lock:
            if not self.enabled:
                return
            if self.added == 0:
                atexit.register(save)
            self.entries[kind][key] = blob
            self.used[kind].add(key)
            self.added += 1
            self.unsaved = True


_store = _Store()


def cache_file() -> Path | None:
    """The cache file of this Python, or None when the cache is turned off."""
    folder = os.environ.get(CACHE_ENV)
    if folder is not None:
        if not folder.strip() or folder.strip().lower() == "off":
            return None
        base = Path(folder)
    else:
        try:
            base = _user_cache_folder()
        except (RuntimeError, KeyError):  # no home folder to be found: no cache
            return None
    tag = sys.implementation.cache_tag or sys.implementation.name
    return base / f"start-{tag}-m{marshal.version}-o{sys.flags.optimize}.marshal"


def _user_cache_folder() -> Path:
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "conteur" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "conteur"
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if os.path.isabs(xdg) else home / ".cache") / "conteur"


def _read(path: Path | None) -> dict[str, dict[str, bytes]] | None:
    """The entries of the cache file at ``path``, or None (no file, or not a cache)."""
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            data = marshal.loads(file.read())  # loads(bytes): load(file) reads byte by byte
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return None
    entries: dict[str, dict[str, bytes]] = {}
    for kind in (_CODE, _YAML):
        table = data.get(kind)
        if not isinstance(table, dict):
            return None
        entries[kind] = {k: v for k, v in table.items() if type(k) is str and type(v) is bytes}
    return entries


def save() -> None:
    """Write the cache file when this run added entries (called at the process's exit)."""
    path = cache_file()
    with _store.lock:
        if path is None or not _store.unsaved:
            return
        entries = _store.entries
        if sum(len(k) + len(v) for table in entries.values() for k, v in table.items()) > MAX_BYTES:
            entries = {
                kind: {k: v for k, v in table.items() if k in _store.used[kind]}
                for kind, table in entries.items()
            }
        blob = marshal.dumps({"format": _FORMAT, **entries})
        _store.unsaved = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # only when something is written: its imports cost a start

        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(blob)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        pass  # a read-only or full disk: the next start compiles again, as without a cache


def compiled(source: str) -> CodeType:
    """The code ``exec(source)`` runs (flags of a module without ``__future__`` imports)."""
    blob = _store.get(_CODE, source)
    if blob is not None:
        try:
            code = marshal.loads(blob)
        except (EOFError, ValueError, TypeError):
            code = None
        if isinstance(code, CodeType):
            return code
    code = compile(source, "<string>", "exec", dont_inherit=True)
    _store.put(_CODE, source, marshal.dumps(code))
    return code


def shipped_yaml(text: str, parse: Callable[[str], Any]) -> Any:
    """``parse(text)`` for the text of a YAML file conteur ships, a fresh copy each call.

    ``parse`` gives the YAML data of a text (what ``yaml.safe_load`` gives; an error it
    raises is raised, and nothing is kept); the text alone is the key."""
    key = text
    blob = _store.get(_YAML, key)
    if blob is not None:
        try:
            return marshal.loads(blob)
        except (EOFError, ValueError, TypeError):
            pass
    data = parse(text)
    try:
        blob = marshal.dumps(data)
    except ValueError:  # a value marshal cannot write (a date): parsed at every start
        return data
    _store.put(_YAML, key, blob)
    return data


def _exec(source: Any, globals_: Any = None, locals_: Any = None) -> None:
    """``exec`` as ``dataclasses`` calls it, the text of a method of a class of
    ``CACHED_PACKAGES`` compiled through the cache."""
    if isinstance(source, str):
        module = globals_.get("__name__") if isinstance(globals_, dict) else None
        if isinstance(module, str) and module.partition(".")[0] in CACHED_PACKAGES:
            source = compiled(source)
        else:  # compiled here, not by exec: this module's __future__ import stays out of it
            source = compile(source, "<string>", "exec", dont_inherit=True)
    exec(source, globals_, locals_)


def install() -> None:
    """Have ``dataclasses`` compile the methods it writes for the classes of
    ``CACHED_PACKAGES`` through the cache (once per process; nothing when it is off)."""
    if cache_file() is not None and getattr(dataclasses, "exec", None) is not _exec:
        dataclasses.exec = _exec  # type: ignore[attr-defined]


def counts() -> tuple[int, int]:
    """(entries found in the cache, entries added) so far in this process."""
    with _store.lock:
        return _store.hits, _store.added
