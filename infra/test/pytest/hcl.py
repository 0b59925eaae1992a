"""Loads the module's HCL with python-hcl2 and undoes its quoting, so tests see plain names and values."""
from __future__ import annotations

import re
from pathlib import Path

import hcl2

INFRA = Path(__file__).resolve().parents[2]


def _unquote(value):
    if isinstance(value, str) and len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return value[1:-1]
    return value


def _clean(node):
    if isinstance(node, dict):
        return {_unquote(k): _clean(v) for k, v in node.items() if k != "__is_block__"}
    if isinstance(node, list):
        return [_clean(v) for v in node]
    return _unquote(node)


def load_dir(directory: Path) -> dict[str, list]:
    """Every top-level block of the .tf files in one directory, merged by kind."""
    merged: dict[str, list] = {}
    for path in sorted(directory.glob("*.tf")):
        with path.open() as f:
            parsed = _clean(hcl2.load(f))
        for kind, blocks in parsed.items():
            for block in blocks:
                if isinstance(block, dict):
                    block = {**block, "__file__": path.name} if kind == "locals" else block
                merged.setdefault(kind, []).append(block)
    return merged


def resources(module: dict, rtype: str) -> dict[str, dict]:
    found = {}
    for block in module.get("resource", []):
        for t, named in block.items():
            if t == rtype:
                found.update(named)
    return found


def all_resources(module: dict) -> dict[str, dict[str, dict]]:
    found: dict[str, dict[str, dict]] = {}
    for block in module.get("resource", []):
        for t, named in block.items():
            found.setdefault(t, {}).update(named)
    return found


def locals_of(module: dict) -> dict:
    merged = {}
    for block in module.get("locals", []):
        merged.update({k: v for k, v in block.items() if k != "__file__"})
    return merged


def blocks(module: dict, kind: str) -> dict[str, dict]:
    merged = {}
    for block in module.get(kind, []):
        merged.update(block)
    return merged


def first(value):
    """A nested block parses as a list of one dict."""
    return value[0] if isinstance(value, list) else value


def expr(value) -> str:
    """An attribute as expression text: "${x}" becomes x."""
    if isinstance(value, str):
        m = re.fullmatch(r"\$\{(.*)\}", value, re.S)
        return m.group(1) if m else value
    return str(value)
