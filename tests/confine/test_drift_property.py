"""Property: for random trees and random commands, compare() reports exactly the tracked
paths that changed, known by construction from a model of the tree."""

from __future__ import annotations

import os
import shutil
import tempfile
import time

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from paw_tui.core.confine.drift import compare, take_snapshot

# "s" is owned by the scope, "g" is skipped (its "cfg" and "h" are pinned), "*.md" is in
# scope anywhere, "*.lock" is protected even in scope; "x\udce9" is not UTF-8 on disk.
NAMES = ("a", "b", "c.md", "d.lock", "x\udce9", "s", "g", "cfg", "h")
PINNED = ("g/cfg", "g/h")
MODES = (0o644, 0o600, 0o755)


def in_scope(path: str) -> bool:
    return path == "s" or path.startswith("s/") or path.endswith(".md")


def owned_dirs(path: str) -> bool:
    return path == "s" or path.startswith("s/")


def skip_dirs(path: str) -> bool:
    return path == "g"


def restorable(path: str) -> bool:
    return path.endswith(".lock") or path in PINNED or path.startswith("g/h/")


CALLABLES = {
    "in_scope": in_scope,
    "restorable": restorable,
    "skip_dirs": skip_dirs,
    "owned_dirs": owned_dirs,
}

# the model: path -> ("f", content, mode) | ("d", mode) | ("l", target)
Model = dict[str, tuple[object, ...]]


def visible(path: str) -> bool:
    """Reached by the walk: no pruned ancestor, unless pinned (or under a pinned dir)."""
    if path in PINNED or any(path.startswith(pin + "/") for pin in PINNED):
        return True
    parts = path.split("/")
    for depth in range(1, len(parts)):
        ancestor = "/".join(parts[:depth])
        if owned_dirs(ancestor) or skip_dirs(ancestor):
            return False
    return True


def tracked(path: str) -> bool:
    return visible(path) and (restorable(path) or not in_scope(path))


def parent(path: str) -> str:
    return path.rpartition("/")[0]


def apply(root: str, model: Model, touched: set[str], op: tuple[object, ...]) -> None:
    """Do ``op`` on disk and in the model; ``touched``: paths written without a type change."""
    kind = op[0]
    path = str(op[1])
    full = os.path.join(root, path)
    if kind == "write":
        content = bytes(op[2])  # type: ignore[call-overload]
        with open(full, "wb") as handle:
            handle.write(content)
        old = model.get(path)
        model[path] = ("f", content, old[2] if old and old[0] == "f" else 0o644)
        os.chmod(full, model[path][2])  # type: ignore[arg-type]
        touched.add(path)
    elif kind == "mkdir":
        os.mkdir(full)
        os.chmod(full, 0o755)
        model[path] = ("d", 0o755)
    elif kind == "symlink":
        if path in model:
            os.unlink(full)
        os.symlink(str(op[2]), full)
        model[path] = ("l", str(op[2]))
        touched.add(path)
    elif kind == "chmod":
        mode = int(op[2])  # type: ignore[call-overload]
        os.chmod(full, mode)
        entry = model[path]
        model[path] = (entry[0], mode) if entry[0] == "d" else (entry[0], entry[1], mode)
        touched.add(path)
    elif kind == "delete":
        if model[path][0] == "d":
            shutil.rmtree(full)
        else:
            os.unlink(full)
        for key in [key for key in model if key == path or key.startswith(path + "/")]:
            del model[key]
    elif kind == "retype":  # a file becomes a directory holding a file, or the reverse
        if model[path][0] == "d":
            shutil.rmtree(full)
            for key in [key for key in model if key == path or key.startswith(path + "/")]:
                del model[key]
            apply(root, model, touched, ("write", path, b"was a dir"))
        else:
            os.unlink(full)
            del model[path]
            apply(root, model, touched, ("mkdir", path))
            apply(root, model, touched, ("write", path + "/b", b"inside"))
    elif kind == "rename":
        dest = str(op[2])
        os.rename(full, os.path.join(root, dest))
        moved = {
            key: value for key, value in model.items() if key == path or key.startswith(path + "/")
        }
        for key, value in moved.items():
            del model[key]
            model[dest + key[len(path) :]] = value
        touched.add(dest)


def draw_op(data: st.DataObject, model: Model) -> tuple[object, ...]:
    dirs = [""] + sorted(key for key, value in model.items() if value[0] == "d")
    entries = sorted(model)
    kinds = ["write", "mkdir", "symlink"]
    if entries:
        kinds += ["chmod", "delete", "rename", "write", "retype"]
    kind = data.draw(st.sampled_from(kinds))

    def fresh() -> str:
        base = data.draw(st.sampled_from(dirs))
        name = data.draw(st.sampled_from(NAMES))
        path = f"{base}/{name}" if base else name
        return path if path not in model else ""

    if kind in ("write", "mkdir", "symlink") and (kind != "write" or data.draw(st.booleans())):
        path = fresh()
        if not path:
            return ("noop", "")
        if kind == "write":
            return ("write", path, data.draw(st.binary(max_size=6)))
        if kind == "mkdir":
            return ("mkdir", path)
        return ("symlink", path, data.draw(st.sampled_from(["a", "../b", "/nowhere"])))
    path = data.draw(st.sampled_from(entries)) if entries else ""
    if not path:
        return ("noop", "")
    entry = model[path]
    if kind == "write":
        if entry[0] != "f":
            return ("noop", "")
        content = data.draw(st.binary(max_size=6).filter(lambda new: new != entry[1]))
        return ("write", path, content)
    if kind == "chmod":
        if entry[0] == "l":
            return ("noop", "")
        current = entry[1] if entry[0] == "d" else entry[2]
        return ("chmod", path, data.draw(st.sampled_from([m for m in MODES if m != current])))
    if kind == "rename":
        dest = fresh()
        if not dest or dest.startswith(path + "/"):
            return ("noop", "")
        return ("rename", path, dest)
    return (kind, path)


def build(data: st.DataObject, root: str) -> Model:
    model: Model = {}
    for _ in range(data.draw(st.integers(0, 14), label="entries")):
        op = draw_op(data, model)
        if op[0] in ("write", "mkdir", "symlink") and str(op[1]) not in model:
            apply(root, model, set(), op)
    return model


def expected(before: Model, after: Model, touched: set[str]) -> tuple[set[str], ...]:
    created = {path for path in after.keys() - before.keys() if tracked(path)}
    deleted = {path for path in before.keys() - after.keys() if tracked(path)}
    surely: set[str] = set()
    maybe: set[str] = set()
    for path in before.keys() & after.keys():
        if not tracked(path):
            continue
        old, new = before[path], after[path]
        if old[0] != new[0] or (old[0] == "d" and old != new):
            surely.add(path)
        elif old[0] != "d" and old != new:
            surely.add(path)
        elif old[0] != "d" and path in touched:
            maybe.add(path)  # rewritten identically: reported or not
    return created, deleted, surely, maybe


def run_case(data: st.DataObject, racy_ns: int, pause: float) -> None:
    root = tempfile.mkdtemp(prefix="drift-prop-")
    try:
        model = build(data, root)
        before_model = dict(model)
        if pause:
            time.sleep(pause)  # no timestamp of the tree shares a clock tick with the command
        snapshot = take_snapshot(root, pinned=PINNED, racy_ns=racy_ns, **CALLABLES)  # type: ignore[arg-type]
        touched: set[str] = set()
        for _ in range(data.draw(st.integers(1, 6), label="ops")):
            op = draw_op(data, model)
            if op[0] != "noop":
                apply(root, model, touched, op)
        drift = compare(snapshot, root, **CALLABLES)
        created, deleted, surely, maybe = expected(before_model, model, touched)
        for label, found in (("created", created), ("deleted", deleted), ("modified", surely)):
            event(f"{label}: {'some' if found else 'none'}")
        assert set(drift.created) == created
        assert set(drift.deleted) == deleted
        assert surely <= set(drift.modified) <= surely | maybe
        protected = {path for path in drift.paths() if restorable(path)}
        assert drift.protected == protected
        assert drift.unreadable == []
    finally:
        shutil.rmtree(root)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_drift_matches_the_model(data: st.DataObject) -> None:
    run_case(data, 50_000_000, 0.0)  # everything is racy: re-listed and hashed


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_drift_matches_the_model_with_the_directory_shortcut(data: st.DataObject) -> None:
    run_case(data, 0, 0.025)  # nothing racy: unchanged directories are not listed again
