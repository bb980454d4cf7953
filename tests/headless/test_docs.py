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
    documented = set(re.findall(r"`([a-z0-9_]+)`", text))
    missing = [field for field in SCHEMAS[kind] if field not in documented]
    assert not missing, f"{kind}: {missing} not in docs/headless.md"


def test_the_readme_links_the_page() -> None:
    assert "docs/headless.md" in (ROOT / "README.md").read_text()


def test_the_readme_recipes_are_commands_aftui_takes() -> None:
    """Each `aftui ...` of the recipes parses (nothing is run): the README keeps up with the options."""
    import shlex

    from aftui import cli

    readme = (ROOT / "README.md").read_text()
    recipes = readme.split("## Recipes", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", recipes, re.S)
    commands = []
    for block in blocks:
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            line = line.split("#", 1)[0] if not line.lstrip().startswith("aftui") else line
            for segment in re.split(r"\|\||\||&&|(?<![0-9>])&(?!>)", line):
                words = shlex.split(segment, comments=True)
                if "aftui" not in words:
                    continue
                words = words[words.index("aftui") + 1 :]
                words = [
                    w
                    for i, w in enumerate(words)
                    if not w.startswith(("2>", ">")) and not (i and words[i - 1] in (">>", "2>>"))
                ]
                if words and words[0] == "activate" and len(words) == 2:
                    words.append("dc_fromxargs")  # the ids come from xargs
                commands.append(words)
    assert len(commands) >= 8
    parser = cli.build_parser()
    for words in commands:
        parser.parse_args(words)
