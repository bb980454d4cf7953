"""Read the registry's components again and write what they say to the emulator's data (registry_read.json).

    .venv/bin/python scripts/registry_read.py

Run it after changing a component under src/aftui/emulator/data/components/ or the reader
(component_code.py); tests/emulator/test_catalog_data.py fails until it is run.
"""

from __future__ import annotations

from pathlib import Path

from aftui.emulator import catalog
from aftui.emulator.component_code import parse_component
from aftui.emulator.registry_read import FILE, record

DATA = Path(__file__).resolve().parents[1] / "src" / "aftui" / "emulator" / "data"


def main() -> None:
    metas = {key: (code, parse_component(code)) for key, code in catalog.REGISTRY.items()}
    (DATA / FILE).write_text(record(metas), encoding="utf-8")
    print(f"{len(metas)} components read into {DATA / FILE}")


if __name__ == "__main__":
    main()
