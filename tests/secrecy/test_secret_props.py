"""A source's secret props (declared `secret: true`) are masked in its detail: Props tab, JSON tab and copied JSON."""

from __future__ import annotations

from pathlib import Path

import httpx
from textual.widgets import Tabs

from aftui.emulator.server import ServerHandle
from aftui.testing.terminal import CapturingDriver, output_of
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.screens.sources import SourceScreen

SECRET = "sk_live_SECRETPROPVALUE42"
CODE = """export default {
  key: "secret-probe", name: "Secret probe", version: "0.0.1", type: "source",
  props: {
    token: { type: "string", label: "Token", secret: true },
    region: { type: "string", label: "Region" },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 900 } },
  },
  async run() {},
}
"""


async def test_secret_prop_values_never_reach_the_screen(
    emulator: ServerHandle, info: dict, api: httpx.Client, tmp_path: Path
) -> None:
    component = api.post("/components", json={"component_code": CODE}).json()["data"]
    source = api.post("/sources", json={
        "component_id": component["id"], "name": "secret probe", "configured_props": {"token": SECRET, "region": "eu-west-1", "timer": {"intervalSeconds": 900}},
    }).json()["data"]  # fmt: skip
    app = AftuiApp(demo_session(emulator.base_url, info, data=tmp_path / "data"), start_pane="sources")
    app.driver_class = CapturingDriver
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        app.push_screen(SourceScreen(source["id"], ("Sources", "secret probe")))
        for _ in range(100):
            if isinstance(app.screen, SourceScreen) and app.screen.query(Tabs):
                break
            await pilot.pause(0.05)
        for _ in range(7):
            await pilot.press("right_square_bracket")
            await pilot.pause(0.2)
        screen = app.screen
        assert screen.json_data()["configured_props"]["token"] != SECRET
        assert screen.json_data()["configured_props"]["region"] == "eu-west-1"
    assert "eu-west-1" in output_of(app)  # the walk did draw the props
    assert SECRET not in output_of(app)
