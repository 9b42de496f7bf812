"""HTML forms read with a game's declared models: the form's field names are the model's JSON paths.

A field named ``cards.@2`` fills ``{"cards": {<the third player's name>: ...}}``, ``first_guess.word``
fills ``{"first_guess": {"word": ...}}``; a value ``@2`` is the third player's name. What a value
becomes (a whole number, a list, true or false, text) is read from the model's JSON Schema at that
path, so no form knows its game's types: the templates name the fields, the model says what they
hold, and the model then validates the whole, with the game's own sentences. Three more shapes, for
what a tap cannot say: ``colours.2`` is the third item of a list (items by place, gaps closed up);
``clues.@0.~2`` makes each text typed in it a key of the mapping ``clues.@0``, with the value 2
(everything after ``.~``, dots included); and a list of strings may be typed in one box (a
textarea), one per line or separated by commas. Written here because
no form library maps a flat HTML form onto a nested JSON Schema this way (WTForms and its kin
declare every field again in Python).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel
from werkzeug.datastructures import MultiDict

from games.base import N_, RuleError, require

CONTROL = frozenset({"version", "csrf_token", "mode"})  # the page's own fields, not the round's
MAX_FIELDS = 400  # a form with more fields than any round has is not one of ours
NOT_OURS = N_("Choose from the buttons shown.")


@cache
def _schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema()


def schema(model: type[BaseModel]) -> dict:
    """A model's JSON Schema (what a game's own setup template reads its choices from)."""
    return _schema(model)


def _resolve(root: dict, node: dict) -> dict:
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _branches(root: dict, node: dict) -> list[dict]:
    node = _resolve(root, node)
    if "anyOf" in node or "oneOf" in node:
        return [b for branch in node.get("anyOf") or node.get("oneOf") or [] for b in _branches(root, branch)]
    return [node]


def _child(root: dict, node: dict, segment: str) -> dict | None:
    for branch in _branches(root, node):
        if segment in branch.get("properties", {}):
            return branch["properties"][segment]
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            return extra
    return None


def _types(root: dict, node: dict) -> set[str]:
    out = set()
    for branch in _branches(root, node):
        kind = branch.get("type")
        if isinstance(kind, list):
            out.update(kind)
        elif kind:
            out.add(kind)
        elif "const" in branch:
            out.add(type(branch["const"]).__name__.replace("int", "integer").replace("str", "string"))
        elif "enum" in branch:
            out.update("integer" if isinstance(v, int) else "string" for v in branch["enum"])
    return out


def _items(root: dict, node: dict) -> dict:
    for branch in _branches(root, node):
        if branch.get("type") == "array":
            return branch.get("items", {})
    return {}


def _value(raw: str, root: dict, node: dict, players: Sequence[str]) -> Any:
    kinds = _types(root, node)
    if kinds and kinds <= {"object", "array", "null"} and not ("null" in kinds and raw == "null"):
        raise RuleError(NOT_OURS)  # one value where the model holds a set of values
    if raw.startswith("@"):
        index = raw[1:]
        require(index.isascii() and index.isdigit() and int(index) < len(players), NOT_OURS)
        return players[int(index)]
    if "integer" in kinds and raw.lstrip("-").isascii() and raw.lstrip("-").isdigit() and len(raw) < 16:
        return int(raw)
    if "boolean" in kinds and raw in ("true", "false", "on"):
        return raw != "false"
    if "null" in kinds and raw == "null":
        return None
    return raw


def parse(model: type, form: MultiDict, players: Sequence[str], prefix: str = "") -> dict:
    """The data ``form`` holds for ``model`` (fields named by JSON path, after ``prefix``)."""
    root = _schema(model)
    data: dict[Any, Any] = {}
    keys = [k for k in form.keys() if k.startswith(prefix) and k not in CONTROL]
    require(len(keys) <= MAX_FIELDS, NOT_OURS)
    for key in keys:
        values = [v.strip() for v in form.getlist(key) if v.strip() != ""]
        if not values:
            continue
        # ``clues.@0.~2``: what is typed are keys of the mapping ``clues.@0``, each with the value 2
        # (the rest of the name, dots and all).
        path, keyed, given = key[len(prefix):].partition(".~")
        node: dict | None = root
        names: list[Any] = []
        for segment in path.split("."):
            if node is None:
                break
            if segment.isascii() and segment.isdigit() and "array" in _types(root, node) \
                    and _child(root, node, segment) is None:
                node, index = _items(root, node), int(segment)  # ``colours.2``: the list's third item
                require(index < MAX_FIELDS, NOT_OURS)
                names.append(index)
                continue
            node = _child(root, node, segment)
            if segment.startswith("@"):
                index_text = segment[1:]
                require(index_text.isascii() and index_text.isdigit() and int(index_text) < len(players), NOT_OURS)
                segment = players[int(index_text)]
            names.append(segment)
        if node is None:
            continue  # not a field of this model: the page's own
        kinds = _types(root, node)
        if keyed:
            target = _mapped(root, node)
            if target is None:
                continue
            value: Any = _value(given, root, target, players)
            for text in values:
                _put(data, names + [text], value, again=True)
            continue
        items = _items(root, node)
        if "array" in kinds and "string" not in kinds and _types(root, items) == {"string"}:
            # A list of words may come typed in one box, one per line (or separated by commas).
            value = [w.strip() for v in values for line in v.splitlines() for w in line.split(",") if w.strip()]
        elif "array" in kinds and (len(values) > 1 or kinds == {"array"}):
            value = [_value(v, root, items, players) for v in values]
        elif "boolean" in kinds:
            value = _value(values[-1], root, node, players)  # a hidden "false" before its checkbox
        else:
            require(len(values) == 1, NOT_OURS)
            value = _value(values[0], root, node, players)
        _put(data, names, value)
    return _lists(data)


def _mapped(root: dict, node: dict) -> dict | None:
    """The schema of a mapping's values (``dict[str, int]``: the int's), or None if not a mapping."""
    for branch in _branches(root, node):
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            return extra
    return None


def _put(data: dict, names: list[Any], value: Any, again: bool = False) -> None:
    """``value`` at the path ``names``; a place filled by two fields is not one of our forms
    (unless ``again``: a word typed twice on one card, for the rules to refuse by name)."""
    for name in names[:-1]:
        inner = data.setdefault(name, {})
        if not isinstance(inner, dict):
            raise RuleError(NOT_OURS)
        data = inner
    require(again or names[-1] not in data, NOT_OURS)
    data[names[-1]] = value


def _lists(data: Any) -> Any:
    """Items given by their place (``colours.0``, ``colours.3``) as a list in that order."""
    if not isinstance(data, dict):
        return data
    inner = {k: _lists(v) for k, v in data.items()}
    if inner and all(isinstance(k, int) for k in inner):
        return [inner[k] for k in sorted(inner)]
    require(not any(isinstance(k, int) for k in inner), NOT_OURS)
    return inner


def option_fields(model: type) -> list[dict]:
    """The options of ``model`` as a form shows them: name, title, kind (``bool``, ``choice``,
    ``number``), the choices with their labels, and the default (from the model's JSON Schema)."""
    root = _schema(model)
    fields = []
    for name, node in root.get("properties", {}).items():
        if node.get("hidden"):
            continue
        branches = _branches(root, node)
        labels = node.get("labels", {})
        choices: list[Any] = []
        for branch in branches:
            if "const" in branch:
                choices.append(branch["const"])
            choices.extend(branch.get("enum", []))
            if branch.get("type") == "null":
                choices.append(None)
        kinds = _types(root, node)
        if "array" in kinds:
            continue  # a list (a die per player) is set by a game's own template
        if choices:
            kind = "choice"
        elif kinds == {"boolean"}:
            kind = "bool"
        elif "integer" in kinds:
            kind = "number"
            low = next((b.get("minimum") for b in branches if "minimum" in b), None)
            high = next((b.get("maximum") for b in branches if "maximum" in b), None)
            if low is not None and high is not None and high - low <= 30:
                kind, choices = "choice", list(range(low, high + 1))
        else:
            continue  # lists and texts are set by a game's own template
        fields.append({
            "name": name, "title": node.get("title", name), "kind": kind, "default": node.get("default"),
            "min": next((b.get("minimum") for b in branches if "minimum" in b), None),
            "max": next((b.get("maximum") for b in branches if "maximum" in b), None),
            "choices": [{"value": c, "label": labels.get("null" if c is None else str(c))} for c in choices],
            "integer": "integer" in kinds, "help": node.get("description"),
        })
    return fields


def round_fields(model: type) -> list[dict] | None:
    """A round's fields as a form with no template of its own shows them (``score/round_fields.html``):
    a choice per player (``{"name": ..., "per_player": True, "choices": [...]}``), one choice, or a
    player; None when the round has a shape only the game's own template can show."""
    root = _schema(model)
    fields = []
    for name, node in root.get("properties", {}).items():
        node = _resolve(root, node)
        values = node.get("additionalProperties")
        per_player = isinstance(values, dict)
        target = _resolve(root, values) if isinstance(values, dict) else node
        choices = [c for b in _branches(root, target) for c in ([b["const"]] if "const" in b else b.get("enum", []))]
        low, high = target.get("minimum"), target.get("maximum")
        if not choices and low is not None and high is not None and high - low <= 30:
            choices = list(range(low, high + 1))
        if choices:
            fields.append({"name": name, "title": node.get("title", name), "per_player": per_player,
                           "choices": choices})
        elif _types(root, target) == {"string"} and not per_player:
            fields.append({"name": name, "title": node.get("title", name), "per_player": False, "player": True})
        else:
            return None
    return fields
