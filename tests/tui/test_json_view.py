"""How the JSON tree writes a value: as the JSON says it, with nothing a terminal would act on."""

from __future__ import annotations

from aftui.tui.widgets.json_view import MAX_STRING, scalar


def test_a_string_reads_as_its_json_with_line_breaks_as_one_escape() -> None:
    # A stack's line breaks were made visible first and then escaped again by the JSON: "\\n" on screen.
    assert scalar("Missing customer_email\n    at Object.run").plain == '"Missing customer_email\\n    at Object.run"'
    assert scalar('say "hi"\t').plain == '"say \\"hi\\"\\t"'


def test_what_json_leaves_raw_and_a_terminal_would_act_on_is_an_escape() -> None:
    shown = scalar("\x1b[31mRED \u202eevil \x9b zero\u200bwidth").plain
    assert shown == '"\\u001b[31mRED \\u202eevil \\u009b zero\\u200bwidth"'


def test_a_huge_string_is_cut() -> None:
    shown = scalar("x" * (MAX_STRING * 10)).plain
    assert len(shown) == MAX_STRING + 2 and shown.endswith('…"')


async def test_the_tree_shows_a_requests_credentials_masked_and_copies_them_as_they_are() -> None:
    from textual.app import App, ComposeResult

    from aftui.masking import MASK
    from aftui.tui.widgets.json_view import JsonView

    event = {"event": {"headers": {"authorization": "Bearer SECRET", "accept": "*/*"}}}

    class Viewer(App[None]):
        def compose(self) -> ComposeResult:
            yield JsonView(event)

    async with Viewer().run_test() as pilot:
        view = pilot.app.query_one(JsonView)
        view.action_expand_all()
        await pilot.pause()
        view.root.children[0].children[0].expand()
        await pilot.pause()
        labels = [str(node.label) for node in view.root.children[0].children[0].children]
        assert labels == [f'authorization: "{MASK}"', 'accept: "*/*"']
        assert "Bearer SECRET" in view.json_text()  # copying is asking for it


async def test_the_nodes_along_the_keys_asked_for_are_unfolded() -> None:
    """A monitor's error showed "▶ error: {5}": its message was a fold away."""
    from textual.app import App, ComposeResult

    from aftui.tui.widgets.json_view import JsonView

    event = {"id": "1-0", "event": {"original_event": {"a": 1}, "error": {"msg": "boom", "stack": "at x"}}}

    class Viewer(App[None]):
        def compose(self) -> ComposeResult:
            yield JsonView()

    async with Viewer().run_test() as pilot:
        view = pilot.app.query_one(JsonView)
        view.set_data(event, unfold=("event", "error"))
        await pilot.pause()
        inner = {str(node.label).partition(":")[0]: node for node in view.root.children[1].children}
        assert inner["error"].is_expanded and not inner["original_event"].is_expanded
        assert [str(node.label) for node in inner["error"].children] == ['msg: "boom"', 'stack: "at x"']
        view.set_data(event, unfold=("nothing", "here"))  # a path not there unfolds what there is of it
