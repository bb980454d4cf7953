"""The static, global catalogue the emulator serves, read from its package data.

The apps of the app catalogue (``GET /apps``), the public component registry
(``GET /components/registry/...`` and ``/components/search``) and the
workflow templates (``tch_...``) that ``POST /workflows`` starts from are
data, kept beside this module in ``data/``:

- ``apps.json``: the apps as the API serves them, except that an app's
  custom fields are a list here (``custom_fields``); the API sends them as a
  string of JSON (``custom_fields_json``), as the service does.
- ``components/<key>.mjs``: each registry component's JavaScript. The
  emulator reads it (``component_code.py``) and never runs it; the five
  ``demo-*`` components name the step behaviours of ``behaviours.py``.
- ``registry.json``: the registry's keys in the order the demo saves them
  (component ids come from the seed in that order, so it is part of every
  id the demo hands out), and the key prefixes that are not apps.
- ``templates.json``: the workflow templates.
- ``registry_read.json``: what reading each component gives, so that the
  demo's build does not read them (``registry_read.py``).

It is read once per process, when this module is first imported. Nothing
here is random or depends on a seed, so the catalogue is the same on every
run and machine. ``importlib.resources`` finds the files wherever the
package is installed (a wheel, a zip), not only in a source tree.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

__all__ = [
    "APPS",
    "APP_CREDENTIAL_FIELDS",
    "BUILTIN_NAMESPACES",
    "OAUTH_CREDENTIAL_FIELDS",
    "REGISTRY",
    "TEMPLATES",
]

_DATA = resources.files("aftui.emulator") / "data"

#: Credential fields every OAuth app exposes (spec, "Account", credentials).
OAUTH_CREDENTIAL_FIELDS: tuple[str, ...] = (
    "oauth_access_token",
    "oauth_client_id",
    "oauth_refresh_token",
    "oauth_uid",
)


def _read_json(name: str) -> Any:
    return json.loads(_DATA.joinpath(name).read_text(encoding="utf-8"))


def _served_app(record: dict[str, Any]) -> dict[str, Any]:
    """An app of ``apps.json`` as the API serves it: its custom fields as a string of JSON."""
    return {
        "id": record["id"],
        "name_slug": record["name_slug"],
        "name": record["name"],
        "auth_type": record["auth_type"],
        "description": record["description"],
        "img_src": record["img_src"],
        "custom_fields_json": json.dumps(record["custom_fields"]),
        "categories": record["categories"],
    }


def _component_code(key: str) -> str:
    return _DATA.joinpath("components", f"{key}.mjs").read_text(encoding="utf-8")


_REGISTRY_INDEX: dict[str, list[str]] = _read_json("registry.json")

APPS: tuple[dict[str, Any], ...] = tuple(_served_app(record) for record in _read_json("apps.json"))

#: Registry components' code by key, in the order the demo saves them.
REGISTRY: dict[str, str] = {key: _component_code(key) for key in _REGISTRY_INDEX["components"]}

TEMPLATES: tuple[dict[str, Any], ...] = tuple(_read_json("templates.json"))

#: Registry key prefixes that are not apps of the catalogue: built-in
#: triggers and helpers that need no connected account.
BUILTIN_NAMESPACES: frozenset[str] = frozenset(_REGISTRY_INDEX["builtin_namespaces"])


def APP_CREDENTIAL_FIELDS(app: dict[str, Any]) -> list[str]:
    """Names of the credential fields an account of ``app`` (as served) exposes.

    OAuth apps expose the four ``oauth_*`` fields of the spec; key-based apps
    expose the names declared in their ``custom_fields_json``.
    """
    if app["auth_type"] == "oauth":
        return list(OAUTH_CREDENTIAL_FIELDS)
    return list(_field_names(app["custom_fields_json"] or "[]"))


@functools.cache
def _field_names(custom_fields_json: str) -> tuple[str, ...]:
    """Parsed once per app: the demo asks for every account it makes."""
    return tuple(field["name"] for field in json.loads(custom_fields_json))
