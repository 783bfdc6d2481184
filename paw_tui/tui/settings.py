"""The person's TUI settings, in the user's config directory (platformdirs), never in a
workspace: ``keymap.yaml`` (theirs: binding id -> keys) and ``tui.json`` (ours: the theme
they last chose).

``PAW_CONFIG_DIR`` replaces the directory (tests, or a second set of settings).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field

CONFIG_DIR_ENV = "PAW_CONFIG_DIR"
KEYMAP_FILE = "keymap.yaml"
STATE_FILE = "tui.json"
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")


def config_dir() -> str:
    override = (os.environ.get(CONFIG_DIR_ENV) or "").strip()
    if override:
        return os.path.abspath(os.path.expanduser(override))
    from platformdirs import user_config_dir

    return user_config_dir("paw-tui", appauthor=False)


def keymap_path() -> str:
    return os.path.join(config_dir(), KEYMAP_FILE)


def state_path() -> str:
    return os.path.join(config_dir(), STATE_FILE)


# -- the theme ---------------------------------------------------------------------------------
def saved_theme() -> str | None:
    """The theme saved by :func:`save_theme`, or None (no file, or not ours to read)."""
    try:
        with open(state_path(), encoding="utf-8") as handle:
            value = json.load(handle).get("theme")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) and value else None


def save_theme(theme: str) -> str | None:
    """Remember ``theme``; the reason it could not be written, or None."""
    from paw_tui.core.support.fsutil import atomic_write

    path = state_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, (json.dumps({"theme": theme}, indent=2) + "\n").encode("utf-8"))
    except OSError as exc:
        return f"Could not remember the theme in {path}: {exc.strerror or exc}"
    return None


# -- the keymap --------------------------------------------------------------------------------
@dataclass
class Keymap:
    """The overrides that are valid, and a sentence for each entry that is not."""

    bindings: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def key_problem(keys: str) -> str | None:
    """Why ``keys`` (``"ctrl+t"``, ``"j,down"``) names no key Textual can deliver, or None."""
    from textual.keys import Keys, _character_to_key

    names = {key.value for key in Keys} | {"space", "enter", "tab", "escape", "backspace"}
    for key in keys.split(","):
        key = key.strip()
        if not key:
            return f"'{keys}' has an empty key"
        *modifiers, last = key.split("+") if len(key) > 1 else [key]
        unknown = [m for m in modifiers if m not in MODIFIERS]
        if unknown:
            return f"'{key}': unknown modifier '{unknown[0]}' (use {', '.join(MODIFIERS)})"
        if len(last) == 1 or last in names or _character_to_key(last) != last:
            continue
        if last.startswith("f") and last[1:].isdigit():
            continue
        return f"'{key}' is not a key name (examples: a, G, ctrl+t, f2, question_mark, escape)"
    return None


def parse_keymap(text: str, path: str, known: dict[str, str]) -> Keymap:
    """The keymap in ``text`` (YAML: ``binding.id: keys``), checked against ``known`` (binding
    id -> what it does). Every problem names the file, the line and the entry."""
    import yaml

    from paw_tui.core.support.suggest import did_you_mean_sentence

    result = Keymap()
    try:
        node = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        reason = getattr(exc, "problem", None) or str(exc)
        result.problems.append(f"{path}{where}: not valid YAML ({reason}); keymap not applied.")
        return result
    if node is None:
        return result
    if not isinstance(node, yaml.MappingNode):
        result.problems.append(
            f"{path}: expected 'binding.id: keys' lines, one per binding; keymap not applied."
        )
        return result
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        name = str(key_node.value)
        where = f"{path} line {line}"
        if name not in known:
            hint = did_you_mean_sentence(name, known)
            result.problems.append(
                f"{where}: no binding '{name}'.{hint} The ids are listed by ? (help)."
            )
            continue
        if not isinstance(value_node, yaml.ScalarNode) or not str(value_node.value).strip():
            result.problems.append(
                f"{where}: '{name}' needs keys as one string, such as 'ctrl+t' or 'j,down'."
            )
            continue
        keys = str(value_node.value).replace(" ", "")
        problem = key_problem(keys)
        if problem:
            result.problems.append(f"{where}: {name}: {problem}.")
            continue
        result.bindings[name] = keys
    return result


def load_keymap(known: Callable[[], dict[str, str]]) -> Keymap:
    """The user's keymap file (none: no overrides). ``known`` lists the binding ids, asked
    only when there is a file to check."""
    path = keymap_path()
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return Keymap()
    except (OSError, UnicodeDecodeError) as exc:
        return Keymap(problems=[f"{path}: cannot be read ({exc}); keymap not applied."])
    return parse_keymap(text, path, known())
