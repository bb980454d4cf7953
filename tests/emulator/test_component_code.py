"""Reading component metadata from realistic component code, and refusing broken code."""

from __future__ import annotations

import contextlib
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aftui.emulator.component_code import ComponentCodeError, ComponentMeta, parse_component

GITHUB_WEBHOOK_SOURCE = """\
import github from "../../github.app.mjs";
import { axios } from "@pipedream/platform";
import common from "../common/common-webhook.mjs";

/* Emits an event per new issue. Braces { and quotes " in comments are ignored. */
export default {
  ...common,
  key: "github-new-issue",
  name: "New Issue (Instant)",
  description: "Emit new event when an issue is created. " +
    "[See the documentation](https://docs.github.com/en/rest/issues)",
  version: "0.1.3",
  type: "source",
  dedupe: "unique",
  props: {
    ...common.props,
    github,
    http: {
      type: "$.interface.http",
      customResponse: true,
    },
    db: "$.service.db",
    repo: {
      propDefinition: [github, "repoFullname"],
    },
    labels: {
      propDefinition: [
        github,
        "labels",
        (c) => ({ repoFullname: c.repo }),
      ],
      type: "string[]",
      label: "Labels",
      optional: true,
    },
    project: {
      type: "string",
      label: "Project",
      async options({ page, prevContext }) {
        const { data } = await this.github.listProjects({ page: page + 1 });
        return data.map((p) => ({ label: `${p.name} }`, value: p.id }));
      },
    },
    info: {
      type: "alert",
      alertType: "info",
      content: "Only issues opened **after** deployment are emitted.",
    },
  },
  hooks: {
    async deploy() {
      const issues = await this.github.listIssues({ repo: this.repo, per_page: 10 });
      issues.reverse().forEach((issue) => this.$emit(issue, this.generateMeta(issue)));
    },
    async activate() {
      const re = /^[{}"'`]+$/g; // a regex full of brackets and quotes
      await this.github.createWebhook({ url: this.http.endpoint, events: ["issues"] });
    },
    async deactivate() {
      await this.github.removeWebhook(this.db.get("webhookId"));
    },
  },
  methods: {
    ...common.methods,
    generateMeta(issue) {
      return {
        id: issue.id,
        summary: `#${issue.number} ${issue.title}`,
        ts: Date.parse(issue.created_at),
      };
    },
    isRelevant: (body) => body.action === "opened",
  },
  async run(event) {
    this.http.respond({ status: 201, body: { ok: true } });
    if (!this.isRelevant(event.body)) return;
    this.$emit(event.body.issue, this.generateMeta(event.body.issue));
  },
};
"""

SLACK_ACTION = """\
import slack from "../../slack.app.mjs";

export default defineAction({
  key: "slack-send-message",
  name: 'Send Message',
  description: `Send a message to a channel`,
  version: "0.2.15",
  type: "action",
  props: {
    slack,
    conversation: {
      propDefinition: [slack, "conversation"],
    },
    text: {
      type: "string",
      label: "Text",
      description: "Text of the message. Markdown is allowed.",
      default: "Hello",
      optional: true,
    },
    mode: {
      type: "string",
      label: "Mode",
      options: [
        { label: "Plain text", value: "plain" },
        { label: "Blocks", value: "blocks" },
      ],
      default: "plain",
    },
    retries: { type: "integer", label: "Retries", min: 0, max: 5, default: 2, },
    token: { type: "string", secret: true, label: "Bot token", },
    extra: { type: "object", optional: true },
    channels: { type: "string[]", options: ["general", "random"], optional: true },
    notify: { type: "boolean", default: false, hidden: true, disabled: true, reloadProps: true },
    query: { type: "string", useQuery: true, optional: true },
  },
  async run({ $ }) {
    const response = await this.slack.sendMessage({ text: this.text });
    $.export("$summary", `Sent message ${response.ts}`);
    return response;
  },
});
"""


def parse(code: str) -> ComponentMeta:
    return parse_component(textwrap.dedent(code))


def error_of(code: str) -> str:
    with pytest.raises(ComponentCodeError) as caught:
        parse(code)
    return str(caught.value)


def prop(meta: ComponentMeta, name: str) -> dict:
    return next(p for p in meta.props if p["name"] == name)


# -- realistic components ---------------------------------------------------


def test_webhook_source_metadata() -> None:
    meta = parse_component(GITHUB_WEBHOOK_SOURCE)
    assert meta.name == "New Issue (Instant)"
    assert meta.key == "github-new-issue"
    assert meta.version == "0.1.3"
    assert meta.type == "source"
    assert meta.description == (
        "Emit new event when an issue is created. [See the documentation](https://docs.github.com/en/rest/issues)"
    )
    assert meta.dedupe == "unique"
    assert meta.hooks == ("deploy", "activate", "deactivate")
    assert meta.methods == ("generateMeta", "isRelevant")  # the spread is skipped


def test_webhook_source_props() -> None:
    meta = parse_component(GITHUB_WEBHOOK_SOURCE)
    assert meta.props == [
        {"name": "github", "type": "app", "app": "github"},
        {"name": "http", "type": "$.interface.http", "customResponse": True},
        {"name": "db", "type": "$.service.db"},
        {"name": "repo", "type": "string", "propDefinition": ["github", "repoFullname"]},
        {
            "name": "labels",
            "type": "string[]",
            "label": "Labels",
            "optional": True,
            "propDefinition": ["github", "labels"],  # inputValues is a function: left out
        },
        {"name": "project", "type": "string", "label": "Project", "remoteOptions": True},
        {
            "name": "info",
            "type": "alert",
            "alertType": "info",
            "content": "Only issues opened **after** deployment are emitted.",
        },
    ]


def test_static_respond_argument_is_read() -> None:
    assert parse_component(GITHUB_WEBHOOK_SOURCE).respond == {"status": 201, "body": {"ok": True}}


def test_action_defined_with_define_action() -> None:
    meta = parse_component(SLACK_ACTION)
    assert (meta.name, meta.key, meta.version, meta.type) == ("Send Message", "slack-send-message", "0.2.15", "action")
    assert meta.description == "Send a message to a channel"
    assert meta.hooks == () and meta.methods == () and meta.dedupe is None and meta.respond is None
    assert [p["name"] for p in meta.props] == [
        "slack", "conversation", "text", "mode", "retries", "token", "extra", "channels", "notify", "query",
    ]  # fmt: skip
    assert prop(meta, "slack") == {"name": "slack", "type": "app", "app": "slack"}
    assert prop(meta, "conversation") == {
        "name": "conversation",
        "type": "string",
        "propDefinition": ["slack", "conversation"],
    }
    assert prop(meta, "text") == {
        "name": "text",
        "type": "string",
        "label": "Text",
        "description": "Text of the message. Markdown is allowed.",
        "optional": True,
        "default": "Hello",
    }
    assert prop(meta, "mode")["options"] == [
        {"label": "Plain text", "value": "plain"},
        {"label": "Blocks", "value": "blocks"},
    ]
    assert prop(meta, "retries") == {
        "name": "retries", "type": "integer", "label": "Retries", "default": 2, "min": 0, "max": 5,
    }  # fmt: skip
    assert prop(meta, "token")["secret"] is True
    assert prop(meta, "channels")["options"] == ["general", "random"]
    assert prop(meta, "notify") == {
        "name": "notify", "type": "boolean", "default": False, "disabled": True, "hidden": True, "reloadProps": True,
    }  # fmt: skip
    assert prop(meta, "query")["useQuery"] is True


def test_polling_source_with_timer_default() -> None:
    meta = parse(
        """
        import { DEFAULT_POLLING_SOURCE_TIMER_INTERVAL } from "@pipedream/platform";
        import rss from "../../rss.app.mjs";

        export default defineSource({
          key: "rss-new-item",
          name: "New Item in Feed",
          version: "1.0.0",
          props: {
            rss,
            timer: {
              type: "$.interface.timer",
              default: { intervalSeconds: 900 },
            },
            fallback: {
              type: "$.interface.timer",
              default: { intervalSeconds: DEFAULT_POLLING_SOURCE_TIMER_INTERVAL },
            },
            url: { type: "string", label: "Feed URL" },
          },
          dedupe: "greatest",
          async run() {},
        });
        """
    )
    assert meta.type == "source"  # no type: a source
    assert meta.description is None
    assert meta.dedupe == "greatest"
    assert prop(meta, "rss") == {"name": "rss", "type": "app", "app": "rss"}
    assert prop(meta, "timer") == {"name": "timer", "type": "$.interface.timer", "default": {"intervalSeconds": 900}}
    assert prop(meta, "fallback") == {"name": "fallback", "type": "$.interface.timer"}  # default not static


def test_common_js_module_with_function_and_arrow_values() -> None:
    meta = parse(
        """
        const twilio = require("../../twilio.app.js");
        const helper = require("./helper.js");

        module.exports = {
          name: "New SMS",
          version: "0.0.1",
          props: {
            twilio,
            helper,
            stripe: { type: "app", app: "stripe" },
          },
          methods: {
            parse: function (body) { return JSON.parse(body); },
            double: (n) => n * 2,
            total: x => x.reduce((a, b) => a + b, 0),
          },
          run: async function (event) {
            console.log("}");
          },
        };
        """
    )
    assert meta.name == "New SMS"
    assert meta.key is None
    assert meta.methods == ("parse", "double", "total")
    assert meta.props == [
        {"name": "twilio", "type": "app", "app": "twilio"},
        {"name": "helper", "type": "app", "app": "helper"},  # not an app file: the identifier
        {"name": "stripe", "type": "app", "app": "stripe"},
    ]


def test_tolerated_syntax() -> None:
    meta = parse(
        r"""
        // leading comment with export default { name: "wrong" }
        const limits = { max: 10 };
        export default defineComponent({
          'name': "Odd \"quoted\" \u00e9\u{1F600}",
          version: `1.0.${"0"}`,
          description: 'line\none',
          [Symbol.for("computed")]: "skipped",
          1: "numeric key",
          props: {
            count: { type: "integer", min: -5, max: 0x10, default: limits.max, },
            ratio: { type: "any", default: [1.5, null, true, { a: "}" }], },
            body: { type: "object", default: { nested: { deep: ["x", `y`] } } },
            shape: { type: "string", default: "a" + limits.max },
          },
          get computedName() { return this.name; },
          async *generate() {},
          run: async ({ $ }) => {
            const pattern = /\/[}]+/;
            const half = 10 / 2;
            return `${half} ${ { a: "}" }.a }`;
          },
        });
        """
    )
    assert meta.name == 'Odd "quoted" é😀'
    assert meta.version == '1.0.${"0"}'  # template substitutions are kept as written
    assert meta.description == "line\none"
    count = prop(meta, "count")
    assert (count["min"], count["max"], "default" in count) == (-5, 16, False)
    assert prop(meta, "ratio")["default"] == [1.5, None, True, {"a": "}"}]
    assert prop(meta, "body")["default"] == {"nested": {"deep": ["x", "y"]}}
    assert "default" not in prop(meta, "shape")  # an expression, not a literal


def test_respond_that_is_not_static_is_none() -> None:
    meta = parse(
        """
        export default {
          name: "Echo",
          version: "0.0.1",
          props: { http: "$.interface.http" },
          async run(event) {
            this.http.respond({ status: 200, body: event.body });
            this.http.respond({ status: 204 });
          },
        };
        """
    )
    assert prop(meta, "http") == {"name": "http", "type": "$.interface.http"}
    assert meta.respond is None  # the first call passes code, so nothing static is known


def test_action_respond_through_dollar() -> None:
    meta = parse(
        """
        export default {
          name: "Reply",
          version: "0.0.1",
          type: "action",
          async run({ $ }) {
            await $.respond({ status: 200, headers: { "content-type": "text/plain" }, body: "ok" });
          },
        };
        """
    )
    assert meta.respond == {"status": 200, "headers": {"content-type": "text/plain"}, "body": "ok"}


def test_component_built_on_a_common_module() -> None:
    meta = parse(
        """
        import common from "../common/common-webhook.mjs";
        import constants from "../common/constants.mjs";

        export default {
          ...common,
          name: "Project Item Status Changed",
          version: "0.1.7",
          props: {
            ...common.props,
            project: {
              propDefinition: [common.props.github, "projectV2", (c) => ({ org: c.org })],
            },
            itemType: { type: "string[]", optional: true, options: constants.ITEM_TYPES },
          },
          methods: { ...common.methods },
          async run({ body: event, headers }) {},
        };
        """
    )
    assert meta.props == [
        # `common.props.github` is taken to name the github app
        {"name": "project", "type": "string", "propDefinition": ["github", "projectV2"]},
        # options held in another file are unknown, so they are neither static nor remote
        {"name": "itemType", "type": "string[]", "optional": True},
    ]
    assert meta.methods == ()


def test_missing_field_mentions_a_spread_that_may_hold_it() -> None:
    assert (
        error_of(
            """
        export default {
          ...common,
          name: "x",
          version: "1",
        };
        """
        )
        == "the component has no `run` method (properties spread from elsewhere are not read)"
    )
    assert (
        error_of(
            """
        export default {
          name: "x",
          version: "1",
          props: {
            repo: { ...common.props.repo, optional: true },
          },
          run() {},
        };
        """
        )
        == "line 6: prop 'repo' has no `type` (properties spread from elsewhere are not read)"
    )


# -- broken code ------------------------------------------------------------

MINIMAL = """\
export default {
  name: "x",
  version: "1",
  %s
  run() {},
};
"""


def with_fields(fields: str) -> str:
    return MINIMAL % fields


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ('export default {\n  name: "x,\n  version: "1",\n};', "line 2: unterminated string"),
        ("export default {\n  name: `x,\n  version: 1,\n};", "line 2: unterminated template literal"),
        ('export default {\n  /* name: "x",\n};', "line 2: unterminated comment"),
        ('export default {\n  name: "x",\n  version: "1",\n  run() {}\n', "line 1: `{` is never closed"),
        ('export default {\n  name: "x",\n  version: "1",\n  run() {\n', "line 4: `{` is never closed"),
        ('export default {\n  name: "x",\n  run() { if (a] }\n};', "line 3: `]` does not close the `(` of line 3"),
        ('export default {\n  name: "x",\n  version "1",\n};', 'line 3: expected `:` but found `"1"`'),
        ('export default {\n  name: "x",\n  version: "1"\n  run() {},\n};', "line 4: expected `,` but found `run`"),
        ('export default {\n  name: "x" version: "1",\n};', "line 2: expected `,` but found `version`"),
        ("export default {\n  name: ,\n};", "line 2: expected a value but found `,`"),
        (
            'export default {\n  props: { x: { type: "string"\n    label: "X" } },\n};',
            "line 3: expected `,` but found `label`",
        ),
        ('export default {\n  name: "x"', "line 1: `{` is never closed"),
        ('export default {\n  version: "1",\n  run() {},\n};', "the component has no `name`"),
        ('export default {\n  name: "x",\n  run() {},\n};', "the component has no `version`"),
        ('export default {\n  name: "x",\n  version: "1",\n};', "the component has no `run` method"),
        (
            'export default {\n  name: "x",\n  version: 1,\n  run() {},\n};',
            "line 3: `version` must be a string literal",
        ),
        ('export default {\n  name: "x",\n  version: "1",\n  run: "now",\n};', "line 4: `run` must be a method"),
        ("const x = 1;", "the code has no `export default { ... }` or `module.exports = { ... }`"),
        ("export default component;", "line 1: the default export is not an object literal"),
    ],
)
def test_unreadable_code(code: str, message: str) -> None:
    with pytest.raises(ComponentCodeError) as caught:
        parse_component(code)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ('type: "trigger",', 'line 4: `type` must be "source" or "action", not \'trigger\''),
        ('type: "action", dedupe: "unique",', "line 4: `dedupe` is only allowed on sources"),
        ('dedupe: "first",', 'line 4: `dedupe` must be "unique", "greatest" or "last", not \'first\''),
        ('type: "action", hooks: { deploy() {} },', "line 4: `hooks` is only allowed on sources"),
        (
            "hooks: {\n    deploy() {},\n    install() {},\n  },",
            "line 6: unknown hook `install` (expected deploy, activate or deactivate)",
        ),
        ("props: common.props,", "line 4: `props` must be an object literal"),
        ("props: { x: 42 },", "line 4: prop 'x' must be an object, a type string or an app"),
        ('props: { x: "$.interface.email" },', "line 4: prop 'x' has unknown type '$.interface.email'"),
        ('props: {\n    x: {\n      type: "number",\n    },\n  },', "line 6: prop 'x' has unknown type 'number'"),
        ('props: { x: { label: "X" } },', "line 4: prop 'x' has no `type`"),
        ('props: { x: { type: "string", min: 1 } },', "line 4: prop 'x' has `min`, which only integer props may have"),
        ('props: { x: { type: "integer", max: 1.5 } },', "line 4: prop 'x' has a non-integer `max`"),
        (
            'props: { x: { type: "integer", secret: true } },',
            "line 4: prop 'x' has `secret`, which only string props may have",
        ),
        ('props: { x: { type: "string", label: 7 } },', "line 4: prop 'x' has a non-string `label`"),
        ('props: { x: { type: "string", optional: "yes" } },', "line 4: prop 'x' has a non-boolean `optional`"),
        (
            'props: { x: { type: "alert", content: "Hi" } },',
            "line 4: prop 'x' is an alert without `alertType` (info, neutral, warning or error)",
        ),
        (
            'props: { x: { type: "alert", alertType: "danger", content: "Hi" } },',
            "line 4: prop 'x' is an alert without `alertType` (info, neutral, warning or error)",
        ),
        ('props: { x: { type: "alert", alertType: "error" } },', "line 4: prop 'x' is an alert without `content`"),
        ('props: { x: { type: "app" } },', "line 4: prop 'x' is an app prop without `app` (the app's name slug)"),
        (
            'type: "action",\n  props: { timer: "$.interface.timer" },',
            "line 5: prop 'timer' is a $.interface.timer, which only sources may have",
        ),
        (
            'props: { x: { type: "string", options: "a,b" } },',
            "line 4: prop 'x': `options` must be a method or an array of strings, numbers or {label, value} objects",
        ),
        (
            'props: { x: { type: "string", options: [{ value: 1 }] } },',
            "line 4: prop 'x': `options` must be a method or an array of strings, numbers or {label, value} objects",
        ),
        (
            'props: { x: { propDefinition: "repo" } },',
            "line 4: prop 'x': `propDefinition` must be [app, propName, inputValues?]",
        ),
    ],
)
def test_unacceptable_metadata(fields: str, message: str) -> None:
    with pytest.raises(ComponentCodeError) as caught:
        parse_component(with_fields(fields))
    assert str(caught.value) == message


def test_error_carries_line_and_reason() -> None:
    with pytest.raises(ComponentCodeError) as caught:
        parse_component('export default {\n\n  name: "oops\n};')
    assert (caught.value.line, caught.value.reason) == (3, "unterminated string")
    assert isinstance(caught.value, ValueError)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    code = 'export default { name: "x", version: "1", run() {}, deep: ' + "[" * 5000 + "]" * 5000 + " };"
    with pytest.raises(ComponentCodeError, match="nests too deeply"):
        parse_component(code)


JS_PIECES = st.sampled_from(
    [
        *list("{}[]()\"'`/\\*+-.,:;=>$ \nab1_"),
        "export default ",
        "${",
        "//",
        "/*",
        "*/",
        "async ",
        "run() {}",
        "0x",
        "\\u{",
        "props: {",
        "type: ",
        "respond({",
    ]
)


@settings(deadline=None)
@given(pieces=st.lists(JS_PIECES, max_size=40), position=st.integers(min_value=0), text=st.text(max_size=10))
def test_any_damage_gives_a_component_code_error_or_a_result(pieces: list[str], position: int, text: str) -> None:
    """Whatever is typed into the code, the reader answers or explains; it never crashes."""
    source = GITHUB_WEBHOOK_SOURCE
    cut = position % len(source)
    for code in ("export default {" + "".join(pieces), source[:cut] + "".join(pieces) + text + source[cut + 3 :]):
        with contextlib.suppress(ComponentCodeError):
            parse_component(code)
