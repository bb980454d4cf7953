"""docs/headless.md documents every field of every --json schema, and README links it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aftui.headless.schemas import SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "headless.md").read_text()


def section(kind: str) -> str:
    match = re.search(rf"^### {kind}\n(.*?)(?=^#|\Z)", DOC, re.M | re.S)
    assert match, f"docs/headless.md has no section for {kind}"
    return match.group(1)


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_every_field_of_the_schema_is_documented(kind: str) -> None:
    text = section(kind)
    documented = set(re.findall(r"`([a-z_]+)`", text))
    missing = [field for field in SCHEMAS[kind] if field not in documented]
    assert not missing, f"{kind}: {missing} not in docs/headless.md"


def test_the_readme_links_the_page() -> None:
    assert "docs/headless.md" in (ROOT / "README.md").read_text()
