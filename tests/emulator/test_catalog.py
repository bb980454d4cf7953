"""Shape and coverage checks of the emulator's static catalogue."""

from __future__ import annotations

import json
import re
from pathlib import Path

from aftui.emulator import catalog
from aftui.emulator.catalog import APP_CREDENTIAL_FIELDS, APPS, BUILTIN_NAMESPACES, REGISTRY, TEMPLATES

APP_SLUGS = {app["name_slug"] for app in APPS}
APPS_BY_SLUG = {app["name_slug"]: app for app in APPS}
TYPE_RE = re.compile(r'\btype:\s*"([^"]+)"')
KEY_RE = re.compile(r'^\s*key:\s*"([^"]+)"', re.MULTILINE)
APP_IMPORT_RE = re.compile(r'^import (\w+) from "\.\./\.\./(\w+)\.app\.mjs";$', re.MULTILINE)
SEMVER_RE = re.compile(r"^\d+\.\d+\.\d+$")


def _component_type(code: str) -> str:
    match = re.search(r'^  type:\s*"(source|action)",$', code, re.MULTILINE)
    assert match, "no top-level type"
    return match.group(1)


# --------------------------------------------------------------------------
# Apps


def test_apps_count_and_unique_identifiers():
    assert len(APPS) >= 34
    ids = [app["id"] for app in APPS]
    slugs = [app["name_slug"] for app in APPS]
    assert len(set(ids)) == len(ids)
    assert len(set(slugs)) == len(slugs)
    for app in APPS:
        assert re.fullmatch(r"app_[A-Za-z0-9]{6,8}", app["id"]), app["id"]
        assert re.fullmatch(r"[a-z][a-z0-9_]*", app["name_slug"]), app["name_slug"]


def test_apps_fields_and_types():
    expected = {"id", "name_slug", "name", "auth_type", "description", "img_src", "custom_fields_json", "categories"}
    for app in APPS:
        assert set(app) == expected, app["name_slug"]
        assert app["auth_type"] in {"oauth", "keys"}
        assert isinstance(app["name"], str) and app["name"]
        assert app["description"].endswith("."), app["name_slug"]
        assert app["img_src"] == f"https://assets.example.com/apps/{app['name_slug']}.svg"
        assert isinstance(app["categories"], list) and app["categories"]
        assert all(isinstance(c, str) and c for c in app["categories"])
        assert isinstance(app["custom_fields_json"], str)
        assert isinstance(json.loads(app["custom_fields_json"]), list)


def test_auth_type_mix_is_about_two_thirds_oauth():
    oauth = sum(app["auth_type"] == "oauth" for app in APPS)
    keys = sum(app["auth_type"] == "keys" for app in APPS)
    assert oauth + keys == len(APPS)
    assert 0.55 <= oauth / len(APPS) <= 0.75
    assert keys >= 10


def test_well_known_apps_present():
    for slug in (
        "github",
        "slack",
        "google_sheets",
        "stripe",
        "openai",
        "postgresql",
        "airtable",
        "notion",
        "hubspot",
        "shopify",
        "twilio",
        "sendgrid",
        "discord",
        "trello",
        "asana",
        "jira",
        "salesforce_rest_api",
        "zoom",
        "dropbox",
        "google_drive",
        "gmail",
        "mailchimp",
        "typeform",
        "intercom",
        "zendesk",
        "linear_app",
        "clickup",
        "pipedrive",
        "mongodb",
        "mysql",
        "aws",
        "datadog",
        "pagerduty",
    ):
        assert slug in APP_SLUGS, slug


def test_custom_fields_shape():
    oauth_with_fields = 0
    for app in APPS:
        fields = json.loads(app["custom_fields_json"])
        if app["auth_type"] == "keys":
            assert fields, f"{app['name_slug']} has no credential fields"
        elif fields:
            oauth_with_fields += 1
        names = [f["name"] for f in fields]
        assert len(set(names)) == len(names)
        for field in fields:
            assert set(field) == {"name", "label", "description", "default", "optional", "type"}
            assert field["default"] is None
            assert isinstance(field["optional"], bool)
            assert field["type"] in {"string", "password"}
            assert field["label"] and field["description"]
    assert oauth_with_fields >= 2


def test_specific_credential_fields():
    def fields(slug):
        return {f["name"]: f for f in json.loads(APPS_BY_SLUG[slug]["custom_fields_json"])}

    assert fields("stripe")["api_key"]["type"] == "password"
    assert list(fields("postgresql")) == ["host", "port", "user", "password", "database"]
    assert fields("postgresql")["password"]["type"] == "password"
    assert list(fields("twilio")) == ["accountSid", "authToken"]
    assert "subdomain" in fields("zendesk")


def test_app_credential_fields():
    assert APP_CREDENTIAL_FIELDS(APPS_BY_SLUG["github"]) == [
        "oauth_access_token",
        "oauth_client_id",
        "oauth_refresh_token",
        "oauth_uid",
    ]
    # OAuth extra fields (e.g. a subdomain) are app settings, not credentials.
    assert APP_CREDENTIAL_FIELDS(APPS_BY_SLUG["zendesk"])[0] == "oauth_access_token"
    assert APP_CREDENTIAL_FIELDS(APPS_BY_SLUG["stripe"]) == ["api_key"]
    assert APP_CREDENTIAL_FIELDS(APPS_BY_SLUG["postgresql"]) == ["host", "port", "user", "password", "database"]
    for app in APPS:
        assert APP_CREDENTIAL_FIELDS(app), app["name_slug"]


def test_catalogue_is_static():
    """The catalogue's loader sits at the bottom of the emulator: it imports none of it and draws nothing at random."""
    source = Path(catalog.__file__).read_text()
    assert "import random" not in source
    assert not re.search(r"^from \.|^import aftui|^from aftui", source, re.MULTILINE)


# --------------------------------------------------------------------------
# Registry


REQUIRED_SOURCES = {
    "http-new-requests",
    "http-custom-response",
    "schedule-every-interval",
    "schedule-cron-expression",
    "github-new-issue",
    "slack-new-message-in-channels",
    "stripe-new-payment",
    "rss-new-item-in-feed",
    "google_sheets-new-row-added",
    "postgresql-new-row",
}
REQUIRED_ACTIONS = {
    "slack-send-message",
    "http-send-request",
    "data_stores-add-update-record",
    "github-create-issue",
    "openai-chat",
    "demo-validate-fields",
    "demo-transform",
    "demo-emit",
    "demo-fail-rate",
    "demo-call-url",
}


def test_registry_size_and_required_keys():
    assert len(REGISTRY) >= 18
    assert set(REGISTRY) >= REQUIRED_SOURCES | REQUIRED_ACTIONS
    for key in REQUIRED_SOURCES:
        assert _component_type(REGISTRY[key]) == "source", key
    for key in REQUIRED_ACTIONS:
        assert _component_type(REGISTRY[key]) == "action", key


def test_registry_keys_match_code_and_pattern():
    for key, code in REGISTRY.items():
        assert KEY_RE.findall(code)[:1] == [key], key
        assert re.fullmatch(r"[a-z0-9_]+-[a-z0-9]+(-[a-z0-9]+)*", key), key
        prefix = key.split("-", 1)[0]
        assert prefix in APP_SLUGS or prefix in BUILTIN_NAMESPACES, key


def test_registry_code_shape():
    for key, code in REGISTRY.items():
        assert "export default {" in code, key
        assert code.rstrip().endswith("};"), key
        version = re.search(r'^  version: "([^"]+)",$', code, re.MULTILINE)
        assert version and SEMVER_RE.match(version.group(1)), key
        assert re.search(r'^  name: "[^"]+",$', code, re.MULTILINE), key
        assert re.search(r'^  description: "[^"]+",$', code, re.MULTILINE), key
        assert re.search(r"^  async run\(", code, re.MULTILINE), key
        assert code.count("{") == code.count("}"), key
        assert code.count("[") == code.count("]"), key
        assert code.count("(") == code.count(")"), key
        dedupe = re.search(r'^  dedupe: "([^"]+)",$', code, re.MULTILINE)
        if dedupe:
            assert dedupe.group(1) in {"unique", "greatest", "last"}
            assert _component_type(code) == "source", key
        if re.search(r"^  hooks: \{", code, re.MULTILINE):
            assert _component_type(code) == "source", key
        if _component_type(code) == "source":
            assert "this.$emit(" in code, key
        else:
            # Actions receive an object holding `$`.
            assert re.search(r"^  async run\(\{[^)]*\$[^)]*\}\) \{$", code, re.MULTILINE), key


def test_registry_app_imports_name_known_apps():
    imported = set()
    for key, code in REGISTRY.items():
        for ident, slug in APP_IMPORT_RE.findall(code):
            assert ident == slug, key
            assert slug in APP_SLUGS, key
            assert re.search(rf"^    {ident},$", code, re.MULTILINE), f"{key}: app {ident} not used as a prop"
            imported.add(slug)
        for slug in re.findall(r'type: "app",\s*app: "(\w+)"', code):
            assert slug in APP_SLUGS, key
    assert {"github", "slack", "stripe", "google_sheets", "postgresql"} <= imported


def test_every_prop_type_appears():
    types = set()
    for code in REGISTRY.values():
        types.update(TYPE_RE.findall(code))
        if '"$.service.db"' in code:
            types.add("$.service.db")
    expected = {
        "app",
        "boolean",
        "integer",
        "string",
        "object",
        "any",
        "string[]",
        "integer[]",
        "object[]",
        "boolean[]",
        "$.interface.http",
        "$.interface.timer",
        "$.service.db",
        "data_store",
        "http_request",
        "alert",
    }
    assert expected <= types, expected - types
    assert types - expected <= {"source", "action"}, types - expected


def test_every_prop_property_appears():
    text = "\n".join(REGISTRY.values())
    for pattern in (
        r"label: \"",
        r"description: \"[^\"]*`[^`]+`",
        r"description: \"[^\"]*\[[^\]]+\]\(https://",
        r"description: \"[^\"]*\*\*[^*]+\*\*",
        r"optional: true",
        r"default: ",
        r"secret: true",
        r"min: \d+",
        r"max: \d+",
        r"disabled: true",
        r"hidden: true",
        r"reloadProps: true",
        r"useQuery: true",
        r"propDefinition: \[",
        r"async additionalProps\(",
        r"options: \[\s*\"",  # static string options
        r"options: \[\s*\{\s*label: \"[^\"]+\",\s*value: ",  # static {label, value} options
        r"async options\(",  # remote options
        r"prevContext",
        r"customResponse: true",
        r"customResponse: false",
        r"intervalSeconds: \d+",
        r"cron: \"",
        r"alertType: \"info\"",
        r"alertType: \"warning\"",
        r"\$\.export\(\"\$summary\"",
        r"this\.db\.get\(",
        r"this\.db\.set\(",
        r"\$auth",
    ):
        assert re.search(pattern, text), pattern
    dedupes = set(re.findall(r'^  dedupe: "(\w+)",$', text, re.MULTILINE))
    assert dedupes == {"unique", "greatest", "last"}
    hooks = set(re.findall(r"^    async (deploy|activate|deactivate)\(\)", text, re.MULTILINE))
    assert hooks == {"deploy", "activate", "deactivate"}


def test_specific_components():
    custom = REGISTRY["http-custom-response"]
    assert "this.http.respond({ status: 200, body: { received: true } })" in custom
    assert re.search(
        r"status: \{\s*type: \"integer\",[^}]*min: 100,\s*max: 599,\s*default: 200,\s*optional: true", custom
    )
    assert "customResponse: false" in REGISTRY["http-new-requests"]
    assert "intervalSeconds: 900" in REGISTRY["schedule-every-interval"]
    cron = REGISTRY["schedule-cron-expression"]
    assert 'cron: "0 9 * * 1-5"' in cron and '"America/New_York"' in cron

    gh = REGISTRY["github-new-issue"]
    assert 'import github from "../../github.app.mjs";' in gh
    assert re.search(r"propDefinition: \[\s*github,\s*\"repo\",\s*\]", gh)
    assert 'db: "$.service.db"' in gh and 'dedupe: "unique"' in gh and "intervalSeconds: 300" in gh

    slack = REGISTRY["slack-new-message-in-channels"]
    assert 'dedupe: "greatest"' in slack and "async options(" in slack
    assert re.search(r"ignoreBot: \{[^}]*type: \"boolean\",[^}]*default: true,\s*optional: true", slack)

    stripe = REGISTRY["stripe-new-payment"]
    assert "webhookEndpoints.create(" in stripe and "webhookEndpoints.del(" in stripe
    assert re.search(r"minAmount: \{[^}]*type: \"integer\",[^}]*min: 0,", stripe)

    sheets = REGISTRY["google_sheets-new-row-added"]
    assert 'content: "Rows are checked every 15 minutes."' in sheets and 'dedupe: "last"' in sheets

    pg = REGISTRY["postgresql-new-row"]
    for needle in ('type: "any"', 'type: "object"', 'alertType: "warning"', 'dedupe: "greatest"'):
        assert needle in pg

    openai = REGISTRY["openai-chat"]
    for needle in ("min: 1,", "max: 4096,", 'type: "object[]"', "secret: true", "hidden: true", "disabled: true"):
        assert needle in openai
    assert 'type: "http_request"' in REGISTRY["http-send-request"]
    assert 'type: "data_store"' in REGISTRY["data_stores-add-update-record"]
    assert 'type: "any"' in REGISTRY["data_stores-add-update-record"]
    assert "throw new Error(" in REGISTRY["demo-validate-fields"]
    assert "$.send.emit(" in REGISTRY["demo-emit"]
    assert "props: {}," in REGISTRY["demo-emit"]
    assert re.search(r"failure_rate: \{[^}]*min: 0,\s*max: 100,", REGISTRY["demo-fail-rate"])
    assert re.search(r'options: \[\s*"GET",\s*"POST",\s*"PUT",\s*\]', REGISTRY["demo-call-url"])


def test_every_registry_entry_parses():
    from aftui.emulator.component_code import parse_component

    for key, code in REGISTRY.items():
        meta = parse_component(code)
        assert meta.key == key
        assert meta.type == _component_type(code), key
        assert SEMVER_RE.match(meta.version), key
        assert meta.name and meta.description, key
        assert {p["name"] for p in meta.props} == _declared_props(code), key
        dedupe = re.search(r'^  dedupe: "(\w+)",$', code, re.MULTILINE)
        assert meta.dedupe == (dedupe.group(1) if dedupe else None), key
        for prop in meta.props:
            if prop["type"] == "app":
                assert prop["app"] in APP_SLUGS, key
    assert parse_component(REGISTRY["http-custom-response"]).respond == {"status": 200, "body": {"received": True}}
    assert parse_component(REGISTRY["github-new-issue"]).hooks == ("deploy", "activate", "deactivate")


# --------------------------------------------------------------------------
# Templates


def _declared_props(code: str) -> set[str]:
    props = re.search(r"^  props: \{$(.*?)^  \},$", code, re.MULTILINE | re.DOTALL)
    return set(re.findall(r"^    (\w+)(?::|,)", props.group(1), re.MULTILINE)) if props else set()


def test_templates_shape():
    assert len(TEMPLATES) >= 5
    ids = [t["id"] for t in TEMPLATES]
    assert len(set(ids)) == len(ids)
    assert len({t["name"] for t in TEMPLATES}) == len(TEMPLATES)
    for template in TEMPLATES:
        assert set(template) == {"id", "name", "description", "triggers", "steps"}
        assert re.fullmatch(r"tch_[A-Za-z0-9]{6}", template["id"]), template["id"]
        assert template["triggers"] and template["steps"]
        for trigger in template["triggers"]:
            kind = trigger["kind"]
            if kind == "http":
                assert set(trigger) == {"kind", "custom_response"}
                assert isinstance(trigger["custom_response"], bool)
            elif kind == "timer":
                assert set(trigger) in ({"kind", "interval_seconds"}, {"kind", "cron", "timezone"})
                if "cron" in trigger:
                    assert len(trigger["cron"].split()) == 5
            elif kind == "source":
                assert set(trigger) == {"kind", "component_key"}
                assert _component_type(REGISTRY[trigger["component_key"]]) == "source"
            else:
                assert trigger == {"kind": "email"}
        namespaces = [s["namespace"] for s in template["steps"]]
        assert len(set(namespaces)) == len(namespaces), template["name"]
        for step in template["steps"]:
            assert set(step) == {"namespace", "component_key", "props"}
            assert re.fullmatch(r"[a-z][a-z0-9_]*", step["namespace"])
            code = REGISTRY[step["component_key"]]
            assert _component_type(code) == "action"
            assert set(step["props"]) <= _declared_props(code), (template["name"], step["namespace"])
            json.dumps(step["props"])


def test_required_templates():
    by_name = {t["name"]: t for t in TEMPLATES}
    orders = by_name["Validate and forward orders"]
    assert orders["triggers"] == [{"kind": "http", "custom_response": False}]
    assert [s["component_key"] for s in orders["steps"]] == ["demo-validate-fields", "demo-transform", "demo-emit"]
    assert orders["steps"][0]["namespace"] == "validate"
    assert orders["steps"][0]["props"] == {"required_fields": ["order_id", "customer_email"]}

    assert "cron" in by_name["Nightly report"]["triggers"][0]

    gh = by_name["GitHub issues to Slack"]
    assert gh["triggers"] == [{"kind": "source", "component_key": "github-new-issue"}]
    assert [s["component_key"] for s in gh["steps"]] == ["slack-send-message"]

    assert by_name["Inbound email triage"]["triggers"] == [{"kind": "email"}]

    flaky = by_name["Flaky partner sync"]
    assert flaky["triggers"][0]["kind"] == "timer" and "interval_seconds" in flaky["triggers"][0]
    assert [s["component_key"] for s in flaky["steps"]] == ["demo-fail-rate", "demo-call-url"]
    assert flaky["steps"][0]["props"] == {"failure_rate": 20}


def test_the_templates_the_readme_names_are_the_demos():
    """The service lists no templates, so the README names the demo's: they must stay the demo's."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    named = dict(re.findall(r"`(tch_\w+)` \(([^)]+)\)", readme.replace("\n", " ")))
    assert named, "the README names the demo's templates"
    assert {t["id"]: t["name"] for t in TEMPLATES if t["id"] in named} == named
