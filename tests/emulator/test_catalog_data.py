"""The catalogue as package data: every file is used, it ships with the package, and it is read once."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from aftui.emulator import catalog, operations, registry_read
from aftui.emulator.component_code import parse_component
from aftui.emulator.server import Emulator, Options

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "aftui" / "emulator" / "data"


def _catalogue_as_json() -> str:
    return json.dumps(
        {
            "apps": catalog.APPS,
            "registry": list(catalog.REGISTRY.items()),  # items: the order is part of the data
            "templates": catalog.TEMPLATES,
            "builtin_namespaces": sorted(catalog.BUILTIN_NAMESPACES),
        }
    )


def test_every_component_file_is_in_the_registry_and_every_key_has_its_file() -> None:
    files = {path.stem for path in (DATA / "components").iterdir()}
    assert files == set(catalog.REGISTRY)
    assert all(path.suffix == ".mjs" for path in (DATA / "components").iterdir())
    assert len(json.loads((DATA / "registry.json").read_text())["components"]) == len(catalog.REGISTRY)


def test_component_files_are_served_as_they_are_written() -> None:
    for key, code in catalog.REGISTRY.items():
        assert (DATA / "components" / f"{key}.mjs").read_bytes() == code.encode(), key


def test_apps_serve_their_custom_fields_as_a_string_of_json() -> None:
    records = json.loads((DATA / "apps.json").read_text())
    assert [app["id"] for app in catalog.APPS] == [record["id"] for record in records]
    for app, record in zip(catalog.APPS, records, strict=True):
        assert json.loads(app["custom_fields_json"]) == record["custom_fields"]
        assert {k: v for k, v in app.items() if k != "custom_fields_json"} == {
            k: v for k, v in record.items() if k != "custom_fields"
        }


def test_an_emulator_start_neither_reads_nor_parses_the_catalogue_again(monkeypatch: pytest.MonkeyPatch) -> None:
    Emulator(Options(data="empty"))  # the catalogue's first use in this process, if it is the first

    def unexpected(*args: object) -> None:
        raise AssertionError("the catalogue was read or parsed again")

    monkeypatch.setattr(catalog, "_read_json", unexpected)
    monkeypatch.setattr(catalog, "_component_code", unexpected)
    monkeypatch.setattr(operations, "parse_component", unexpected)
    for _ in range(2):
        emulator = Emulator(Options())  # the whole demo: registry, sources, workflows, Connect accounts
        assert len([c for c in emulator.store.components.values() if c.registry]) == len(catalog.REGISTRY)


def test_the_shipped_read_of_the_registry_is_a_fresh_read_of_its_code() -> None:
    """data/registry_read.json saves the demo's build from reading the registry's JavaScript (about 30 ms);
    after a component or the reader changes, `scripts/registry_read.py` writes it again."""
    fresh = {key: (code, parse_component(code)) for key, code in catalog.REGISTRY.items()}
    shipped = (Path(catalog.__file__).parent / "data" / registry_read.FILE).read_text(encoding="utf-8")
    assert shipped == registry_read.record(fresh), "stale: run scripts/registry_read.py"
    for code, read in fresh.values():
        assert registry_read.shipped_read(code) == read


def test_a_component_not_shipped_as_it_is_is_read_from_its_code(monkeypatch: pytest.MonkeyPatch) -> None:
    code = next(iter(catalog.REGISTRY.values()))
    assert registry_read.shipped_read(code + "\n// changed") is None
    read: list[str] = []
    monkeypatch.setattr(operations, "read_component", lambda c: read.append(c) or parse_component(c))
    operations._registry_meta.cache_clear()
    try:
        assert operations._registry_meta(code + "\n// changed").name == parse_component(code).name
        operations._registry_meta(code)
    finally:
        operations._registry_meta.cache_clear()
    assert read == [code + "\n// changed"], "the shipped code is not read again; a changed one is"


def test_the_catalogue_loads_from_the_built_package(tmp_path: Path) -> None:
    """Build as a wheel does (setuptools' build_py with pyproject's package-data), zip it, and read the
    catalogue from the zip in a fresh interpreter that cannot see the source tree or site-packages."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    built = tmp_path / "lib"
    subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py", "--build-lib", str(built)],
        cwd=project,
        check=True,
        capture_output=True,
    )
    shipped = {p.relative_to(built / "aftui" / "emulator" / "data") for p in built.glob("aftui/emulator/data/**/*")}
    assert shipped == {p.relative_to(DATA) for p in DATA.glob("**/*")}

    package = tmp_path / "aftui.zip"
    with zipfile.ZipFile(package, "w") as archive:
        for path in sorted(built.rglob("*")):
            archive.write(path, path.relative_to(built))
    read = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from aftui.emulator import catalog\n"
        "print(catalog.__file__)\n"
        "print(json.dumps({'apps': catalog.APPS, 'registry': list(catalog.REGISTRY.items()),"
        " 'templates': catalog.TEMPLATES, 'builtin_namespaces': sorted(catalog.BUILTIN_NAMESPACES)}))\n"
    )
    # -S: no site-packages, so neither the editable install nor anything else can supply aftui.
    result = subprocess.run(
        [sys.executable, "-S", "-c", read, str(package)], check=True, capture_output=True, text=True, cwd=tmp_path
    )
    where, loaded = result.stdout.splitlines()
    assert where.startswith(str(package))
    assert loaded == _catalogue_as_json()
