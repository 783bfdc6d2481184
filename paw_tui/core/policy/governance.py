"""Policy from ``.orchestration/governance.yaml``: the model and its strict reader.

A missing file means the defaults. The model is standard library only (the gate rebuilds it
from the compiled cache); :func:`parse_governance` needs PyYAML and runs on the slow path.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.support.yaml_nodes import Problem

DEFAULT_SESSION_TTL = 8 * 3600
BUILTIN_PROTECTED = (".orchestration/**", ".paw/instructions/**", ".git/**")
_DURATION = r"(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)?"
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
KNOWN_KEYS = (
    "approval",
    "intent_sharing",
    "session_ttl",
    "protected",
    "tools",
    "log_reads",
    "tool_instructions",
    "tool_defaults",
)


class Governance:
    """The effective policy; every field has the documented default."""

    __slots__ = (
        "approval_required",
        "intent_sharing",
        "session_ttl",
        "protected",
        "read_only_tools",
        "mutating_tools",
        "shell_tools",
        "log_reads",
        "tool_instructions",
        "tool_defaults",
    )

    def __init__(
        self,
        approval_required: bool = False,
        intent_sharing: bool = False,
        session_ttl: float = DEFAULT_SESSION_TTL,
        protected: list[str] | None = None,
        read_only_tools: list[str] | None = None,
        mutating_tools: list[str] | None = None,
        shell_tools: list[str] | None = None,
        log_reads: bool = False,
        tool_instructions: dict[str, str] | None = None,
        tool_defaults: dict[str, dict[str, object]] | None = None,
    ) -> None:
        self.approval_required = approval_required
        self.intent_sharing = intent_sharing
        self.session_ttl = session_ttl
        self.protected = list(protected or [])
        self.read_only_tools = list(read_only_tools or [])
        self.mutating_tools = list(mutating_tools or [])
        self.shell_tools = list(shell_tools or [])
        self.log_reads = log_reads
        self.tool_instructions = dict(tool_instructions or {})
        self.tool_defaults = dict(tool_defaults or {})

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Governance:
        return cls(**{name: data[name] for name in cls.__slots__ if name in data})  # type: ignore[arg-type]


def parse_duration(text: str) -> float | None:
    """Seconds in ``8h``, ``30m``, ``90s``, ``2d`` or a bare number of seconds; None if not one."""
    import re

    match = re.fullmatch(_DURATION, text.strip().lower())
    if not match:
        return None
    unit = (match.group(2) or "s")[0]
    return float(match.group(1)) * _UNIT_SECONDS[unit]


def parse_governance(text: str, file: str) -> tuple[Governance, list[Problem], list[Problem]]:
    """The policy, problems (the state is unusable while there are any) and warnings."""
    import yaml

    from paw_tui.core.intents.model import glob_problem
    from paw_tui.core.support.yaml_nodes import NodeReader

    reader = NodeReader(file)
    warnings = NodeReader(file)
    root = reader.compose(text)
    if root is None or (isinstance(root, yaml.ScalarNode) and root.tag == "tag:yaml.org,2002:null"):
        return Governance(), reader.problems, []
    values: dict[str, object] = {}
    for key, key_node, node in reader.mapping(root, "the file"):
        if key == "approval":
            choice = reader.string(node, "'approval'")
            if choice is not None:
                if choice.strip() not in ("none", "required"):
                    reader.problem(node, f"'approval' must be 'none' or 'required', not '{choice}'")
                else:
                    values["approval_required"] = choice.strip() == "required"
        elif key == "intent_sharing":
            choice = reader.string(node, "'intent_sharing'")
            if choice is not None:
                if choice.strip() not in ("deny", "allow"):
                    reader.problem(
                        node, f"'intent_sharing' must be 'deny' or 'allow', not '{choice}'"
                    )
                else:
                    values["intent_sharing"] = choice.strip() == "allow"
        elif key == "session_ttl":
            raw = reader.string(node, "'session_ttl'")
            if raw is not None:
                seconds = parse_duration(raw)
                if seconds is None or seconds <= 0:
                    reader.problem(
                        node,
                        f"'session_ttl' must be a duration such as 8h, 30m or 90s, not '{raw}'",
                    )
                else:
                    values["session_ttl"] = seconds
        elif key == "protected":
            patterns = reader.string_list(node, "'protected'")
            if patterns is not None:
                for index, pattern in enumerate(patterns):
                    message = glob_problem(pattern)
                    if message:
                        reader.problem(
                            node.value[index], f"bad pattern '{pattern}' in 'protected': {message}"
                        )
                values["protected"] = patterns
        elif key == "tools":
            for sub, _sub_key, sub_node in reader.mapping(node, "'tools'"):
                if sub not in ("read_only", "mutating", "shell"):
                    warnings.problem(
                        _sub_key,
                        f"unknown tool class 'tools.{sub}' (ignored); use read_only, mutating or shell",
                    )
                    continue
                names = reader.string_list(sub_node, f"'tools.{sub}'")
                if names is not None:
                    values[f"{sub}_tools"] = [name.strip() for name in names]
        elif key == "log_reads":
            flag = reader.boolean(node, "'log_reads'")
            if flag is not None:
                values["log_reads"] = flag
        elif key == "tool_instructions":
            mapping: dict[str, str] = {}
            for tool, _tool_key, path_node in reader.mapping(node, "'tool_instructions'"):
                path = reader.string(path_node, f"the instructions path of '{tool}'")
                if path is not None:
                    mapping[tool] = path
            values["tool_instructions"] = mapping
        elif key == "tool_defaults":
            for tool, _tool_key, args_node in reader.mapping(node, "'tool_defaults'"):
                for _arg, _arg_key, _value in reader.mapping(
                    args_node, f"the defaults of '{tool}'"
                ):
                    pass
        else:
            warnings.problem(
                key_node,
                f"unknown option '{key}' (ignored); known options: {', '.join(KNOWN_KEYS)}",
            )
    if reader.problems:
        return Governance(), reader.problems, warnings.problems
    if "tool_defaults" in {str(k.value) for k, _ in root.value}:
        loaded = yaml.safe_load(text) or {}
        values["tool_defaults"] = {
            str(tool): {str(arg): value for arg, value in (args or {}).items()}
            for tool, args in (loaded.get("tool_defaults") or {}).items()
        }
    return Governance(**values), [], warnings.problems  # type: ignore[arg-type]
