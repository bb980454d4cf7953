"""`aftui serve` in a real browser: the system's headless Chromium opens the page, sees the Sources list,
and sees a change key refused in read-only. What the page draws on its canvas is what came over its
websocket, so that is read (a hook installed before the page's own script), escapes taken out."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains

from aftui.tui.serve import ServeOptions, command_of, start_words

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1400,900",
]

# Keeps, in window.__screen, the text of every websocket message the page receives.
HOOK = """
window.__screen = [];
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const ws = new Native(...args);
  ws.addEventListener("message", (e) => {
    const data = e.data;
    if (typeof data === "string") window.__screen.push(data);
    else if (data instanceof ArrayBuffer) window.__screen.push(new TextDecoder().decode(data));
    else if (data instanceof Blob) data.text().then((t) => window.__screen.push(t));
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
"""
ESCAPES = re.compile(r"\x1b\[[0-9;?$]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b\][^\x07]*\x07")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`aftui serve --demo` on a free port of 127.0.0.1: (its URL, what it said at start)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AFTUI_")}
    env.update(AFTUI_DATA_DIR=str(tmp_path / "data"), AFTUI_CONFIG=str(tmp_path / "none.toml"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "aftui.cli", "serve", "--demo", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    said = []
    assert proc.stdout is not None
    for line in proc.stdout:  # the start words come before it listens
        said.append(line)
        if line.startswith("Ctrl-C stops it"):
            break
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "aftui serve did not listen: " + "".join(said)
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/", "".join(said)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    """Headless Chromium of the system (Debian's chromium and chromium-driver): missing, the test fails."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    yield driver
    driver.quit()


def _screen(driver: webdriver.Chrome) -> str:
    return ESCAPES.sub("", "".join(driver.execute_script("return window.__screen || []")))


def _type(driver: webdriver.Chrome, keys: str, timeout: float = 20) -> None:
    """Keys into the page's terminal, as typed: xterm.js's input (a textarea that follows the cursor, which
    the TUI hides, so not "interactable" for WebDriver) is focused, and the keys go to what has the focus."""
    deadline = time.monotonic() + timeout
    while not driver.execute_script(
        "const t = document.querySelector('.xterm-helper-textarea'); if (t) t.focus();"
        " return t !== null && document.activeElement === t;"
    ):
        assert time.monotonic() < deadline, "the page's terminal never took the focus"
        time.sleep(0.2)
    ActionChains(driver).send_keys(keys).perform()


def _wait_for(driver: webdriver.Chrome, text: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while text not in (shown := _screen(driver)):
        assert time.monotonic() < deadline, f"{text!r} never reached the page; it got: {shown[-2000:]!r}"
        time.sleep(0.2)
    return shown


def test_the_browser_sees_the_sources_and_a_change_refused_in_read_only(
    served: tuple[str, str], browser: webdriver.Chrome
) -> None:
    url, said = served
    assert f"the demo at {url.rstrip('/')}" in said and "read-only" in said and "this machine only" in said
    page = urllib.request.urlopen(url, timeout=10).read().decode()
    # Nothing is asked of another host (textual-serve's page asked Google for a font).
    links = re.findall(r'(?:href|src)="(https?://[^"]*)"', page)
    assert links and all(link.startswith(url) for link in links), links
    browser.get(url)
    shown = _wait_for(browser, "Orders sheet", timeout=60)  # a source of the demo, on the Health pane
    assert "READ-ONLY" in shown
    _type(browser, "2")  # the Sources list
    _wait_for(browser, "New source", timeout=20)  # its key in the footer: the list has the keys
    _type(browser, "n")  # n: a new source, a change
    _wait_for(browser, "changes are", timeout=20)
    assert "New source: This profile is read-only" in _screen(browser)


def test_changes_and_other_hosts_are_only_allowed_when_asked_and_said() -> None:
    safe = ServeOptions(demo=True)
    assert "--read-only" in command_of(safe) and command_of(safe).endswith(" demo")
    assert safe.host == "127.0.0.1"
    opened = ServeOptions(host="0.0.0.0", allow_changes=True, profile="oncall")
    assert "--read-only" not in command_of(opened) and "--profile oncall" in command_of(opened)
    words = "\n".join(start_words(opened))
    assert "CHANGES ALLOWED" in words and "listening on 0.0.0.0" in words and "no login" in words
