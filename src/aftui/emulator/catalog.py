"""The static, global catalogue served by the emulator.

Everything here is plain, hard-coded data: the apps of the app catalogue
(``GET /apps``), the public component registry (``GET /components/registry/...``
and ``/components/search``) and the workflow templates (``tch_...``) that
``POST /workflows`` can be created from. Nothing is random and nothing depends
on a seed, so ids are stable across runs and machines.

The five ``demo-*`` registry components are the built-in step behaviours the
emulator's runtime executes inside workflows (validate required fields,
transform, emit, fail with a given rate, call a URL). Their JavaScript is
illustrative, like the rest of the registry: the emulator never runs JS.
"""

from __future__ import annotations

import json

__all__ = [
    "APPS",
    "APP_CREDENTIAL_FIELDS",
    "BUILTIN_NAMESPACES",
    "OAUTH_CREDENTIAL_FIELDS",
    "REGISTRY",
    "TEMPLATES",
]

# --------------------------------------------------------------------------
# Apps
# --------------------------------------------------------------------------

#: Credential fields every OAuth app exposes (spec, "Account", credentials).
OAUTH_CREDENTIAL_FIELDS: tuple[str, ...] = (
    "oauth_access_token",
    "oauth_client_id",
    "oauth_refresh_token",
    "oauth_uid",
)

_IMG = "https://assets.example.com/apps/{slug}.svg"


def _field(
    name: str,
    label: str,
    description: str,
    *,
    type: str = "string",
    optional: bool = False,
) -> dict:
    return {
        "name": name,
        "label": label,
        "description": description,
        "default": None,
        "optional": optional,
        "type": type,
    }


def _app(
    id: str,
    name_slug: str,
    name: str,
    auth_type: str,
    description: str,
    categories: list[str],
    fields: list[dict] | None = None,
) -> dict:
    return {
        "id": id,
        "name_slug": name_slug,
        "name": name,
        "auth_type": auth_type,
        "description": description,
        "img_src": _IMG.format(slug=name_slug),
        "custom_fields_json": json.dumps(fields or []),
        "categories": categories,
    }


APPS: tuple[dict, ...] = (
    # ---- OAuth apps ------------------------------------------------------
    _app(
        "app_OrZhaO",
        "github",
        "GitHub",
        "oauth",
        "Where the world builds software: repositories, issues, pull requests and Actions.",
        ["Developer Tools"],
    ),
    _app(
        "app_OkrhR1",
        "slack",
        "Slack",
        "oauth",
        "Slack is a channel-based messaging platform for teams.",
        ["Communication"],
    ),
    _app(
        "app_168hvn",
        "google_sheets",
        "Google Sheets",
        "oauth",
        "Create, edit and share spreadsheets from anywhere with Google Sheets.",
        ["Productivity", "Databases"],
    ),
    _app(
        "app_X7Lhxr",
        "notion",
        "Notion",
        "oauth",
        "Notion is a connected workspace for docs, wikis, projects and databases.",
        ["Productivity"],
    ),
    _app(
        "app_Mqh3aV",
        "hubspot",
        "HubSpot",
        "oauth",
        "HubSpot is a CRM platform with marketing, sales, service and content tools.",
        ["CRM", "Marketing"],
    ),
    _app(
        "app_P4jhvq",
        "shopify",
        "Shopify",
        "oauth",
        "Shopify is a commerce platform to start, run and grow an online store.",
        ["E-commerce"],
        [
            _field(
                "shop_id",
                "Shop subdomain",
                "The subdomain of your store: for `acme.myshopify.com` enter `acme`.",
            ),
        ],
    ),
    _app(
        "app_mWnhBo",
        "discord",
        "Discord",
        "oauth",
        "Voice, video and text chat for communities and teams.",
        ["Communication"],
    ),
    _app(
        "app_Nlh6vQ",
        "trello",
        "Trello",
        "oauth",
        "Trello organizes projects into boards, lists and cards.",
        ["Project Management"],
    ),
    _app(
        "app_1Z2hw1",
        "asana",
        "Asana",
        "oauth",
        "Asana helps teams orchestrate work, from daily tasks to cross-functional initiatives.",
        ["Project Management"],
    ),
    _app(
        "app_Bkah2G",
        "jira",
        "Jira",
        "oauth",
        "Jira is Atlassian's issue and project tracker for software teams.",
        ["Developer Tools", "Project Management"],
    ),
    _app(
        "app_9dKhnP",
        "salesforce_rest_api",
        "Salesforce",
        "oauth",
        "Salesforce is the customer relationship management platform for sales, service and marketing.",
        ["CRM"],
    ),
    _app(
        "app_yLVh7e",
        "zoom",
        "Zoom",
        "oauth",
        "Zoom provides video meetings, webinars and chat.",
        ["Communication"],
    ),
    _app(
        "app_OQYhq7",
        "dropbox",
        "Dropbox",
        "oauth",
        "Dropbox stores, syncs and shares files across devices.",
        ["File Storage"],
    ),
    _app(
        "app_1Orh5e",
        "google_drive",
        "Google Drive",
        "oauth",
        "Google Drive is a file storage and synchronization service by Google.",
        ["File Storage", "Productivity"],
    ),
    _app(
        "app_mvWhYn",
        "gmail",
        "Gmail",
        "oauth",
        "Gmail is Google's email service.",
        ["Communication", "Email"],
    ),
    _app(
        "app_Rd2hpK",
        "mailchimp",
        "Mailchimp",
        "oauth",
        "Mailchimp is an email marketing and automation platform.",
        ["Marketing", "Email"],
    ),
    _app(
        "app_WY6h4v",
        "typeform",
        "Typeform",
        "oauth",
        "Typeform builds conversational forms, surveys and quizzes.",
        ["Forms"],
    ),
    _app(
        "app_ZAxhqG",
        "intercom",
        "Intercom",
        "oauth",
        "Intercom is a customer messaging platform for support, engagement and onboarding.",
        ["Customer Support"],
    ),
    _app(
        "app_Jr8hJ0",
        "zendesk",
        "Zendesk",
        "oauth",
        "Zendesk is customer service software with ticketing, chat and a help center.",
        ["Customer Support"],
        [
            _field(
                "subdomain",
                "Subdomain",
                "Your Zendesk subdomain: for `https://acme.zendesk.com` enter `acme`.",
            ),
        ],
    ),
    _app(
        "app_1dBhP3",
        "linear_app",
        "Linear",
        "oauth",
        "Linear is the issue tracker built for high-performance software teams.",
        ["Developer Tools", "Project Management"],
    ),
    _app(
        "app_8ywhKE",
        "clickup",
        "ClickUp",
        "oauth",
        "ClickUp brings tasks, docs, goals and chat into one workspace.",
        ["Project Management", "Productivity"],
    ),
    _app(
        "app_G7nh1k",
        "pipedrive",
        "Pipedrive",
        "oauth",
        "Pipedrive is a sales CRM and pipeline management tool.",
        ["CRM"],
    ),
    _app(
        "app_rmBhEq",
        "pagerduty",
        "PagerDuty",
        "oauth",
        "PagerDuty is an incident response platform for on-call engineering teams.",
        ["Developer Tools", "Monitoring"],
    ),
    _app(
        "app_2ZahRo",
        "microsoft_outlook",
        "Microsoft Outlook",
        "oauth",
        "Outlook is Microsoft's email, calendar and contacts service.",
        ["Communication", "Email"],
    ),
    _app(
        "app_13Gh2V",
        "google_calendar",
        "Google Calendar",
        "oauth",
        "Google Calendar schedules meetings and events and shares calendars.",
        ["Productivity"],
        [
            _field(
                "calendar_id",
                "Default calendar ID",
                "Calendar used when a step does not name one, for example `primary`.",
                optional=True,
            ),
        ],
    ),
    _app(
        "app_dpVhR2",
        "gitlab",
        "GitLab",
        "oauth",
        "GitLab is a DevSecOps platform for source control, CI/CD and issue tracking.",
        ["Developer Tools"],
    ),
    _app(
        "app_vgKhQ9",
        "calendly_v2",
        "Calendly",
        "oauth",
        "Calendly schedules meetings without the back-and-forth emails.",
        ["Productivity"],
    ),
    # ---- Key-based apps --------------------------------------------------
    _app(
        "app_OrZhYA",
        "stripe",
        "Stripe",
        "keys",
        "Stripe powers online payments, subscriptions and invoicing.",
        ["Payments", "E-commerce"],
        [
            _field(
                "api_key",
                "Secret key",
                "Your secret API key (`sk_live_...` or `sk_test_...`), from **Developers > API keys**.",
                type="password",
            ),
        ],
    ),
    _app(
        "app_mWnhGb",
        "openai",
        "OpenAI",
        "keys",
        "OpenAI provides the GPT models through a REST API.",
        ["Artificial Intelligence"],
        [
            _field(
                "api_key",
                "API key",
                "A secret key from https://platform.openai.com/api-keys (`sk-...`).",
                type="password",
            ),
        ],
    ),
    _app(
        "app_kpnhW3",
        "postgresql",
        "PostgreSQL",
        "keys",
        "PostgreSQL is a powerful, open source object-relational database.",
        ["Databases", "Developer Tools"],
        [
            _field("host", "Host", "The hostname or IP address of the server, e.g. `db.example.com`."),
            _field("port", "Port", "The port the server listens on, usually `5432`."),
            _field("user", "User", "The database user to connect as."),
            _field("password", "Password", "The password of that user.", type="password"),
            _field("database", "Database", "The name of the database to connect to."),
        ],
    ),
    _app(
        "app_m9zhdv",
        "twilio",
        "Twilio",
        "keys",
        "Twilio offers programmable SMS, voice, video and email APIs.",
        ["Communication", "Developer Tools"],
        [
            _field("accountSid", "Account SID", "Your Account SID, from the Twilio console (`AC...`)."),
            _field("authToken", "Auth Token", "Your Auth Token, from the Twilio console.", type="password"),
        ],
    ),
    _app(
        "app_1z8hW9",
        "sendgrid",
        "SendGrid",
        "keys",
        "Twilio SendGrid delivers transactional and marketing email.",
        ["Email", "Marketing"],
        [
            _field(
                "api_key",
                "API key",
                "An API key with **Mail Send** permission (`SG....`).",
                type="password",
            ),
        ],
    ),
    _app(
        "app_XBxhAl",
        "airtable",
        "Airtable",
        "keys",
        "Airtable is a low-code platform for building collaborative apps on relational tables.",
        ["Databases", "Productivity"],
        [
            _field(
                "api_key",
                "Personal access token",
                "A personal access token (`pat...`) with the `data.records:read` and `data.records:write` scopes.",
                type="password",
            ),
        ],
    ),
    _app(
        "app_mE7hpQ",
        "mongodb",
        "MongoDB",
        "keys",
        "MongoDB is a document database with scalability and flexibility.",
        ["Databases"],
        [
            _field("username", "Username", "The database user."),
            _field("password", "Password", "The password of that user.", type="password"),
            _field("database", "Database", "The default database."),
            _field(
                "hostname",
                "Hostname",
                "The cluster hostname, e.g. `cluster0.abcde.mongodb.net`.",
            ),
        ],
    ),
    _app(
        "app_OQYh2q",
        "mysql",
        "MySQL",
        "keys",
        "MySQL is the world's most popular open source relational database.",
        ["Databases"],
        [
            _field("host", "Host", "The hostname or IP address of the server."),
            _field("port", "Port", "The port the server listens on, usually `3306`."),
            _field("username", "Username", "The database user."),
            _field("password", "Password", "The password of that user.", type="password"),
            _field("database", "Database", "The database to connect to."),
        ],
    ),
    _app(
        "app_8Gnhvb",
        "aws",
        "AWS",
        "keys",
        "Amazon Web Services offers on-demand cloud computing platforms and APIs.",
        ["Cloud", "Developer Tools"],
        [
            _field("accessKeyId", "Access Key ID", "The access key ID of an IAM user (`AKIA...`)."),
            _field(
                "secretAccessKey",
                "Secret Access Key",
                "The secret access key of that IAM user.",
                type="password",
            ),
        ],
    ),
    _app(
        "app_A6phq4",
        "datadog",
        "Datadog",
        "keys",
        "Datadog is the monitoring and security platform for cloud applications.",
        ["Monitoring", "Developer Tools"],
        [
            _field("api_key", "API key", "A Datadog API key.", type="password"),
            _field(
                "application_key",
                "Application key",
                "A Datadog application key, needed to read data.",
                type="password",
            ),
            _field(
                "base_url",
                "Site",
                "Your Datadog site, e.g. `datadoghq.com` or `datadoghq.eu`.",
                optional=True,
            ),
        ],
    ),
    _app(
        "app_lGwh4x",
        "anthropic",
        "Anthropic",
        "keys",
        "Anthropic builds the Claude family of large language models.",
        ["Artificial Intelligence"],
        [
            _field("api_key", "API key", "A key from the Anthropic console (`sk-ant-...`).", type="password"),
        ],
    ),
    _app(
        "app_0Gkhoj",
        "mailgun",
        "Mailgun",
        "keys",
        "Mailgun is an email API for sending, receiving and tracking email.",
        ["Email"],
        [
            _field("api_key", "API key", "Your private Mailgun API key.", type="password"),
            _field("domain_name", "Domain", "The sending domain, e.g. `mg.example.com`."),
            _field("region", "Region", "`US` or `EU`. Defaults to `US`.", optional=True),
        ],
    ),
    _app(
        "app_eZkh8v",
        "telegram_bot_api",
        "Telegram Bot",
        "keys",
        "The Telegram Bot API lets bots send and receive messages in Telegram chats.",
        ["Communication"],
        [
            _field(
                "token",
                "Bot token",
                "The token @BotFather gave you, e.g. `123456:ABC-DEF...`.",
                type="password",
            ),
        ],
    ),
    _app(
        "app_Jkvh4n",
        "supabase",
        "Supabase",
        "keys",
        "Supabase is an open source backend with a Postgres database, auth and storage.",
        ["Databases", "Developer Tools"],
        [
            _field("subdomain", "Project reference", "The project ref in `https://<ref>.supabase.co`."),
            _field(
                "service_key",
                "Service role key",
                "The `service_role` key from **Project settings > API**.",
                type="password",
            ),
        ],
    ),
)


def APP_CREDENTIAL_FIELDS(app: dict) -> list[str]:
    """Names of the credential fields an account of ``app`` exposes.

    OAuth apps expose the four ``oauth_*`` fields of the spec; key-based apps
    expose the names declared in their ``custom_fields_json``.
    """
    if app["auth_type"] == "oauth":
        return list(OAUTH_CREDENTIAL_FIELDS)
    return [field["name"] for field in json.loads(app["custom_fields_json"] or "[]")]


#: Registry key prefixes that are not apps of the catalogue: built-in
#: triggers and helpers that need no connected account.
BUILTIN_NAMESPACES: frozenset[str] = frozenset({"http", "schedule", "rss", "data_stores", "demo"})


# --------------------------------------------------------------------------
# Registry components
# --------------------------------------------------------------------------

_HTTP_NEW_REQUESTS = r"""import { axios } from "@pipedream/platform";

export default {
  key: "http-new-requests",
  name: "New Requests",
  description: "Get a unique URL where you can send HTTP or webhook requests. Each request is emitted as an event. [See the documentation](https://pipedream.example.com/docs/sources/http)",
  version: "0.1.3",
  type: "source",
  props: {
    http: {
      type: "$.interface.http",
      customResponse: false,
    },
    emitBodyOnly: {
      type: "boolean",
      label: "Body Only",
      description: "Emit only the request body instead of the full request (`method`, `path`, `query`, `headers`, `body`).",
      optional: true,
      default: false,
    },
    forwardUrl: {
      type: "string",
      label: "Forward To",
      description: "Optionally forward a copy of each request to this URL, e.g. `https://staging.example.com/hooks`.",
      optional: true,
    },
  },
  methods: {
    summary(event) {
      const size = event.bodyRaw ? event.bodyRaw.length : 0;
      return `${event.method} ${event.path} (${size} bytes)`;
    },
    async forward(event) {
      try {
        await axios(this, {
          method: event.method,
          url: this.forwardUrl,
          headers: {
            "content-type": event.headers["content-type"] ?? "application/json",
          },
          data: event.bodyRaw,
        });
      } catch (err) {
        console.log(`Forwarding to ${this.forwardUrl} failed: ${err.message}`);
      }
    },
  },
  async run(event) {
    const {
      method, path, query, headers, bodyRaw, body,
    } = event;
    if (this.forwardUrl) {
      await this.forward(event);
    }
    this.$emit(this.emitBodyOnly
      ? body
      : {
        method,
        path,
        query,
        headers,
        bodyRaw,
        body,
      }, {
      summary: this.summary(event),
      ts: Date.now(),
    });
  },
};
"""

_HTTP_CUSTOM_RESPONSE = r"""export default {
  key: "http-custom-response",
  name: "New Requests (Custom Response)",
  description: "Get a unique URL and choose the HTTP response returned to the caller. Each request is emitted as an event.",
  version: "0.0.4",
  type: "source",
  props: {
    http: {
      type: "$.interface.http",
      customResponse: true,
    },
    status: {
      type: "integer",
      label: "Response Status Code",
      description: "The HTTP status code returned to the caller, between `100` and `599`.",
      min: 100,
      max: 599,
      default: 200,
      optional: true,
    },
    body: {
      type: "string",
      label: "Response Body",
      description: "Text returned as the response body. When empty, the source replies with a small JSON acknowledgement.",
      optional: true,
    },
  },
  async run(event) {
    const status = this.status ?? 200;
    if (!this.body && status === 200) {
      this.http.respond({ status: 200, body: { received: true } });
    } else {
      this.http.respond({
        status,
        headers: {
          "content-type": "text/plain; charset=utf-8",
        },
        body: this.body ?? "",
      });
    }
    this.$emit(event, {
      summary: `${event.method} ${event.path} -> ${status}`,
      ts: Date.now(),
    });
  },
};
"""

_SCHEDULE_EVERY_INTERVAL = r"""export default {
  key: "schedule-every-interval",
  name: "Custom Interval",
  description: "Emit an event on a regular interval, for example every 15 minutes.",
  version: "0.2.1",
  type: "source",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Interval",
      description: "How often to emit an event. The shortest interval is **15 seconds**.",
      default: {
        intervalSeconds: 900,
      },
    },
  },
  async run(event) {
    const {
      timestamp, interval_seconds: intervalSeconds,
    } = event;
    this.$emit({
      timestamp,
      intervalSeconds,
    }, {
      id: timestamp,
      summary: `Interval of ${intervalSeconds}s elapsed at ${new Date(timestamp * 1000).toISOString()}`,
      ts: timestamp * 1000,
    });
  },
};
"""

_SCHEDULE_CRON_EXPRESSION = r"""export default {
  key: "schedule-cron-expression",
  name: "Cron Schedule",
  description: "Emit an event on a cron schedule, e.g. `0 9 * * 1-5` for 9 AM on weekdays. [Crontab guru](https://crontab.guru) helps write expressions.",
  version: "0.1.6",
  type: "source",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Schedule",
      description: "A standard five-field cron expression.",
      default: {
        cron: "0 9 * * 1-5",
      },
    },
    timezone: {
      type: "string",
      label: "Timezone",
      description: "The IANA timezone the cron expression is evaluated in.",
      options: [
        "UTC",
        "America/New_York",
        "America/Los_Angeles",
        "Europe/London",
        "Europe/Berlin",
        "Asia/Tokyo",
        "Australia/Sydney",
      ],
      default: "UTC",
      optional: true,
    },
  },
  async run(event) {
    const { timestamp } = event;
    this.$emit({
      timestamp,
      cron: event.cron,
      timezone: this.timezone ?? "UTC",
    }, {
      id: timestamp,
      summary: `Scheduled run at ${new Date(timestamp * 1000).toISOString()}`,
      ts: timestamp * 1000,
    });
  },
};
"""

_GITHUB_NEW_ISSUE = r"""import github from "../../github.app.mjs";

export default {
  key: "github-new-issue",
  name: "New Issue",
  description: "Emit new event when an issue is opened in a repository. Pull requests are skipped. [See the documentation](https://docs.github.com/en/rest/issues/issues#list-repository-issues)",
  version: "1.0.7",
  type: "source",
  dedupe: "unique",
  props: {
    github,
    db: "$.service.db",
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 300,
      },
    },
    repo: {
      propDefinition: [
        github,
        "repo",
      ],
    },
    labels: {
      type: "string[]",
      label: "Labels",
      description: "Only emit issues that carry **all** of these labels, e.g. `bug` or `needs-triage`.",
      optional: true,
    },
  },
  hooks: {
    async deploy() {
      const issues = await this.listIssues();
      for (const issue of issues.slice(0, 10).reverse()) {
        this.emitIssue(issue);
      }
      if (issues.length) {
        this._setLastCreatedAt(issues[0].created_at);
      }
    },
    async activate() {
      console.log(`Watching ${this.repo} for new issues`);
    },
    async deactivate() {
      this._setLastCreatedAt(null);
      console.log(`Stopped watching ${this.repo}`);
    },
  },
  methods: {
    _getLastCreatedAt() {
      return this.db.get("lastCreatedAt");
    },
    _setLastCreatedAt(createdAt) {
      this.db.set("lastCreatedAt", createdAt);
    },
    async listIssues(since) {
      const issues = await this.github.listIssues({
        repoFullname: this.repo,
        params: {
          state: "open",
          sort: "created",
          direction: "desc",
          labels: this.labels?.join(","),
          since,
          per_page: 100,
        },
      });
      return issues.filter((issue) => !issue.pull_request);
    },
    emitIssue(issue) {
      this.$emit(issue, {
        id: issue.id,
        summary: `#${issue.number} ${issue.title}`,
        ts: Date.parse(issue.created_at),
      });
    },
  },
  async run() {
    const lastCreatedAt = this._getLastCreatedAt();
    const issues = await this.listIssues(lastCreatedAt);
    const fresh = issues.filter((issue) => !lastCreatedAt || issue.created_at > lastCreatedAt);
    if (!fresh.length) {
      console.log("No new issues");
      return;
    }
    this._setLastCreatedAt(fresh[0].created_at);
    fresh.reverse().forEach((issue) => this.emitIssue(issue));
  },
};
"""

_SLACK_NEW_MESSAGE_IN_CHANNELS = r"""import slack from "../../slack.app.mjs";

export default {
  key: "slack-new-message-in-channels",
  name: "New Message In Channels",
  description: "Emit new event when a message is posted in a public or private channel. [See the documentation](https://api.slack.com/methods/conversations.history)",
  version: "1.0.12",
  type: "source",
  dedupe: "greatest",
  props: {
    slack,
    db: "$.service.db",
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 60,
      },
    },
    channel: {
      type: "string",
      label: "Channel",
      description: "The channel to watch. The bot must be a member of private channels.",
      async options({ page, prevContext }) {
        const {
          channels, response_metadata: meta,
        } = await this.slack.sdk().conversations.list({
          types: "public_channel,private_channel",
          exclude_archived: true,
          limit: 200,
          cursor: prevContext.nextPageToken,
        });
        console.log(`Loaded page ${page} of channels`);
        return {
          options: channels.map((c) => ({
            label: `#${c.name}`,
            value: c.id,
          })),
          context: {
            nextPageToken: meta?.next_cursor,
          },
        };
      },
    },
    keyword: {
      type: "string",
      label: "Keyword",
      description: "Only emit messages that contain this keyword (case-insensitive).",
      optional: true,
    },
    ignoreBot: {
      type: "boolean",
      label: "Ignore Bots",
      description: "Skip messages posted by bots and integrations, including this one.",
      default: true,
      optional: true,
    },
  },
  methods: {
    _getOldest() {
      return this.db.get("oldest") ?? `${Math.floor(Date.now() / 1000) - 3600}`;
    },
    _setOldest(ts) {
      this.db.set("oldest", ts);
    },
    matches(message) {
      if (this.ignoreBot && (message.bot_id || message.subtype === "bot_message")) {
        return false;
      }
      if (this.keyword && !message.text?.toLowerCase().includes(this.keyword.toLowerCase())) {
        return false;
      }
      return true;
    },
  },
  async run() {
    const { messages } = await this.slack.sdk().conversations.history({
      channel: this.channel,
      oldest: this._getOldest(),
      limit: 200,
    });
    if (!messages.length) {
      return;
    }
    this._setOldest(messages[0].ts);
    for (const message of messages.reverse().filter((m) => this.matches(m))) {
      this.$emit({
        ...message,
        channel: this.channel,
      }, {
        id: parseFloat(message.ts) * 1e6,
        summary: message.text?.slice(0, 80) ?? "(no text)",
        ts: Math.round(parseFloat(message.ts) * 1000),
      });
    }
  },
};
"""

_STRIPE_NEW_PAYMENT = r"""import stripe from "../../stripe.app.mjs";

export default {
  key: "stripe-new-payment",
  name: "New Payment",
  description: "Emit new event when a payment intent succeeds. A webhook endpoint is registered in your Stripe account on activation. [See the documentation](https://stripe.com/docs/api/webhook_endpoints)",
  version: "0.1.9",
  type: "source",
  dedupe: "unique",
  props: {
    stripe,
    db: "$.service.db",
    http: {
      type: "$.interface.http",
      customResponse: true,
    },
    minAmount: {
      type: "integer",
      label: "Minimum Amount",
      description: "Only emit payments of at least this amount, in the **smallest currency unit** (e.g. cents: `1000` is $10.00).",
      min: 0,
      optional: true,
    },
  },
  hooks: {
    async activate() {
      const endpoint = await this.stripe.sdk().webhookEndpoints.create({
        url: this.http.endpoint,
        enabled_events: [
          "payment_intent.succeeded",
        ],
        description: "Workflow source: New Payment",
      });
      this.db.set("webhookId", endpoint.id);
      this.db.set("webhookSecret", endpoint.secret);
    },
    async deactivate() {
      const webhookId = this.db.get("webhookId");
      if (webhookId) {
        await this.stripe.sdk().webhookEndpoints.del(webhookId);
        this.db.set("webhookId", null);
        this.db.set("webhookSecret", null);
      }
    },
  },
  async run(event) {
    let stripeEvent;
    try {
      stripeEvent = this.stripe.sdk().webhooks.constructEvent(
        event.bodyRaw,
        event.headers["stripe-signature"],
        this.db.get("webhookSecret"),
      );
    } catch (err) {
      this.http.respond({
        status: 400,
        body: err.message,
      });
      console.log(`Signature verification failed: ${err.message}`);
      return;
    }
    this.http.respond({
      status: 200,
    });
    const payment = stripeEvent.data.object;
    if (this.minAmount && payment.amount < this.minAmount) {
      return;
    }
    this.$emit(payment, {
      id: stripeEvent.id,
      summary: `Payment ${payment.id}: ${(payment.amount / 100).toFixed(2)} ${payment.currency.toUpperCase()}`,
      ts: stripeEvent.created * 1000,
    });
  },
};
"""

_RSS_NEW_ITEM_IN_FEED = r"""import { axios } from "@pipedream/platform";
import { XMLParser } from "fast-xml-parser";

export default {
  key: "rss-new-item-in-feed",
  name: "New Item in Feeds",
  description: "Emit new event for each new item in one or more RSS or Atom feeds.",
  version: "1.2.2",
  type: "source",
  dedupe: "unique",
  props: {
    urls: {
      type: "string[]",
      label: "Feed URLs",
      description: "The URLs of the feeds, e.g. `https://blog.example.com/feed.xml`.",
    },
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 900,
      },
    },
    includeContent: {
      type: "boolean",
      label: "Include Item Content",
      description: "Emit the full content of each item. Choosing **Yes** lets you cap its length.",
      optional: true,
      default: false,
      reloadProps: true,
    },
  },
  async additionalProps() {
    if (!this.includeContent) {
      return {};
    }
    return {
      maxContentLength: {
        type: "integer",
        label: "Max Content Length",
        description: "Truncate item content to this many characters. `0` means no limit.",
        min: 0,
        default: 0,
        optional: true,
      },
    };
  },
  methods: {
    async fetchFeed(url) {
      const xml = await axios(this, {
        url,
        responseType: "text",
      });
      const doc = new XMLParser({
        ignoreAttributes: false,
      }).parse(xml);
      const items = doc.rss?.channel?.item ?? doc.feed?.entry ?? [];
      return Array.isArray(items)
        ? items
        : [
          items,
        ];
    },
    itemId(item) {
      return item.guid?.["#text"] ?? item.guid ?? item.id ?? item.link;
    },
  },
  async run() {
    for (const url of this.urls) {
      const items = await this.fetchFeed(url);
      for (const item of items.reverse()) {
        if (!this.includeContent) {
          delete item["content:encoded"];
        } else if (this.maxContentLength) {
          item.description = String(item.description ?? "").slice(0, this.maxContentLength);
        }
        this.$emit({
          ...item,
          feed: url,
        }, {
          id: this.itemId(item),
          summary: item.title ?? "(untitled item)",
          ts: Date.parse(item.pubDate ?? item.updated) || Date.now(),
        });
      }
    }
  },
};
"""

_GOOGLE_SHEETS_NEW_ROW_ADDED = r"""import google_sheets from "../../google_sheets.app.mjs";

export default {
  key: "google_sheets-new-row-added",
  name: "New Row Added",
  description: "Emit new event each time a row or rows are added to the bottom of a worksheet. [See the documentation](https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/get)",
  version: "0.2.4",
  type: "source",
  dedupe: "last",
  props: {
    google_sheets,
    db: "$.service.db",
    alert: {
      type: "alert",
      alertType: "info",
      content: "Rows are checked every 15 minutes.",
    },
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 900,
      },
    },
    sheetId: {
      type: "string",
      label: "Spreadsheet ID",
      description: "The ID in the spreadsheet URL: `https://docs.google.com/spreadsheets/d/<spreadsheetId>/edit`.",
    },
    worksheet: {
      type: "integer",
      label: "Worksheet ID",
      description: "The `gid` of the worksheet (tab), shown in the URL after `#gid=`. The first tab is usually `0`.",
      min: 0,
    },
  },
  methods: {
    _getRowCount() {
      return this.db.get(`rowCount:${this.worksheet}`) ?? 0;
    },
    _setRowCount(count) {
      this.db.set(`rowCount:${this.worksheet}`, count);
    },
  },
  async run() {
    const sheets = this.google_sheets.sheets();
    const { data: spreadsheet } = await sheets.spreadsheets.get({
      spreadsheetId: this.sheetId,
    });
    const tab = spreadsheet.sheets.find((s) => s.properties.sheetId === this.worksheet);
    if (!tab) {
      throw new Error(`Worksheet ${this.worksheet} not found in spreadsheet ${this.sheetId}`);
    }
    const { data } = await sheets.spreadsheets.values.get({
      spreadsheetId: this.sheetId,
      range: tab.properties.title,
    });
    const rows = data.values ?? [];
    const seen = this._getRowCount();
    rows.slice(seen).forEach((row, i) => {
      const rowNumber = seen + i + 1;
      this.$emit({
        newRow: row,
        rowNumber,
        worksheet: tab.properties.title,
      }, {
        id: `${this.sheetId}-${this.worksheet}-${rowNumber}`,
        summary: `New row #${rowNumber} in ${tab.properties.title}`,
        ts: Date.now(),
      });
    });
    this._setRowCount(rows.length);
  },
};
"""

_POSTGRESQL_NEW_ROW = r"""import postgresql from "../../postgresql.app.mjs";

export default {
  key: "postgresql-new-row",
  name: "New Row",
  description: "Emit new event when a new row is added to a table. [See the documentation](https://node-postgres.com/features/queries)",
  version: "2.0.5",
  type: "source",
  dedupe: "greatest",
  props: {
    postgresql,
    db: "$.service.db",
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 300,
      },
    },
    alert: {
      type: "alert",
      alertType: "warning",
      content: "The column must be **unique and increasing**, such as a serial `id` or a `created_at` timestamp. Rows whose value is not greater than the last one seen are skipped.",
    },
    table: {
      type: "string",
      label: "Table",
      description: "The table to watch.",
      options: [
        {
          label: "public.orders",
          value: "orders",
        },
        {
          label: "public.customers",
          value: "customers",
        },
        {
          label: "public.invoices",
          value: "invoices",
        },
        {
          label: "audit.events",
          value: "audit.events",
        },
      ],
    },
    column: {
      type: "string",
      label: "Column",
      description: "An increasing column used to find new rows, e.g. `id`.",
      default: "id",
      optional: true,
    },
    query: {
      type: "any",
      label: "Custom Query",
      description: "Replace the generated query. Either SQL text using `$1` for the last value seen, or an object `{ text, values }`.",
      optional: true,
    },
    filters: {
      type: "object",
      label: "Filters",
      description: "Equality filters as column/value pairs, e.g. `{ \"status\": \"paid\" }`.",
      optional: true,
    },
  },
  methods: {
    _getLastValue() {
      return this.db.get("lastValue") ?? 0;
    },
    _setLastValue(value) {
      this.db.set("lastValue", value);
    },
    buildQuery(lastValue) {
      const column = this.column ?? "id";
      if (typeof this.query === "string") {
        return {
          text: this.query,
          values: [
            lastValue,
          ],
        };
      }
      if (this.query) {
        return this.query;
      }
      const filters = Object.entries(this.filters ?? {});
      const where = [
        `"${column}" > $1`,
        ...filters.map(([
          key,
        ], i) => `"${key}" = $${i + 2}`),
      ].join(" AND ");
      return {
        text: `SELECT * FROM ${this.table} WHERE ${where} ORDER BY "${column}" ASC LIMIT 100`,
        values: [
          lastValue,
          ...filters.map(([
            , value,
          ]) => value),
        ],
      };
    },
  },
  async run() {
    const column = this.column ?? "id";
    const rows = await this.postgresql.executeQuery(this.buildQuery(this._getLastValue()));
    for (const row of rows) {
      this.$emit(row, {
        id: Number(row[column]),
        summary: `New row in ${this.table}: ${column} = ${row[column]}`,
        ts: Date.now(),
      });
    }
    if (rows.length) {
      this._setLastValue(rows[rows.length - 1][column]);
    }
  },
};
"""

_SLACK_SEND_MESSAGE = r"""import slack from "../../slack.app.mjs";

export default {
  key: "slack-send-message",
  name: "Send Message",
  description: "Send a message to a public or private channel. [See the documentation](https://api.slack.com/methods/chat.postMessage)",
  version: "0.4.2",
  type: "action",
  props: {
    slack,
    channel: {
      type: "string",
      label: "Channel",
      description: "Search for a channel by name, or enter a channel ID such as `C0123456789`.",
      useQuery: true,
      async options({
        query, prevContext,
      }) {
        const {
          channels, response_metadata: meta,
        } = await this.slack.sdk().conversations.list({
          types: "public_channel,private_channel",
          limit: 200,
          cursor: prevContext.nextPageToken,
        });
        return {
          options: channels
            .filter((c) => !query || c.name.includes(query))
            .map((c) => ({
              label: `#${c.name}`,
              value: c.id,
            })),
          context: {
            nextPageToken: meta?.next_cursor,
          },
        };
      },
    },
    text: {
      type: "string",
      label: "Text",
      description: "The message text. Supports Slack [mrkdwn](https://api.slack.com/reference/surfaces/formatting): `*bold*`, `_italic_`, `<https://example.com|links>`.",
    },
    blocks: {
      type: "object[]",
      label: "Blocks",
      description: "Optional [Block Kit](https://api.slack.com/block-kit) blocks. When set, `text` is used as the notification fallback.",
      optional: true,
    },
    asUser: {
      type: "boolean",
      label: "Send as User",
      description: "Post as the authenticated user instead of the bot.",
      optional: true,
    },
  },
  async run({ $ }) {
    const response = await this.slack.sdk().chat.postMessage({
      channel: this.channel,
      text: this.text,
      blocks: this.blocks,
      as_user: this.asUser,
    });
    $.export("$summary", `Sent message to ${this.channel} (ts ${response.ts})`);
    return response;
  },
};
"""

_HTTP_SEND_REQUEST = r"""export default {
  key: "http-send-request",
  name: "Send any HTTP Request",
  description: "Send an HTTP request to any URL. Configure the method, URL, headers, query and body in the request builder.",
  version: "1.1.0",
  type: "action",
  props: {
    httpRequest: {
      type: "http_request",
      label: "HTTP Request Configuration",
      description: "The request to send. Use `{{steps.trigger.event.body}}` to pass data from earlier steps.",
    },
    failOnError: {
      type: "boolean",
      label: "Fail on HTTP error",
      description: "Throw when the response status is `4xx` or `5xx`.",
      optional: true,
      default: true,
    },
  },
  async run({ $ }) {
    try {
      const response = await this.httpRequest.execute();
      $.export("$summary", `${this.httpRequest.method ?? "GET"} ${this.httpRequest.url} succeeded`);
      return response;
    } catch (err) {
      if (this.failOnError === false) {
        $.export("$summary", `Request failed with ${err.response?.status ?? err.message}`);
        return err.response?.data;
      }
      throw err;
    }
  },
};
"""

_DATA_STORES_ADD_UPDATE_RECORD = r"""export default {
  key: "data_stores-add-update-record",
  name: "Add or update a single record",
  description: "Add a new record or update an existing one in a data store, by key.",
  version: "0.0.10",
  type: "action",
  props: {
    dataStore: {
      type: "data_store",
      label: "Data Store",
      description: "Select an existing data store or create a new one.",
    },
    key: {
      type: "string",
      label: "Key",
      description: "The key of the record, e.g. `customer:{{steps.trigger.event.body.id}}`.",
    },
    value: {
      type: "any",
      label: "Value",
      description: "Any JSON-serializable value. Strings that contain JSON are parsed first.",
    },
    ttl: {
      type: "integer",
      label: "Time to Live (seconds)",
      description: "Remove the record after this many seconds. Leave empty to keep it forever.",
      min: 0,
      optional: true,
    },
  },
  methods: {
    parseValue(value) {
      if (typeof value !== "string") {
        return value;
      }
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    },
  },
  async run({ $ }) {
    const exists = await this.dataStore.has(this.key);
    const value = this.parseValue(this.value);
    await this.dataStore.set(this.key, value, this.ttl
      ? {
        ttl: this.ttl,
      }
      : undefined);
    $.export("$summary", `Successfully ${exists ? "updated" : "added"} record \`${this.key}\``);
    return {
      key: this.key,
      value,
    };
  },
};
"""

_GITHUB_CREATE_ISSUE = r"""import github from "../../github.app.mjs";

export default {
  key: "github-create-issue",
  name: "Create Issue",
  description: "Create a new issue in a repository. [See the documentation](https://docs.github.com/en/rest/issues/issues#create-an-issue)",
  version: "0.3.2",
  type: "action",
  props: {
    github,
    repo: {
      propDefinition: [
        github,
        "repo",
      ],
    },
    title: {
      type: "string",
      label: "Title",
      description: "The title of the issue.",
    },
    body: {
      type: "string",
      label: "Body",
      description: "The contents of the issue. GitHub-flavoured **Markdown** is supported.",
      optional: true,
    },
    labels: {
      type: "string[]",
      label: "Labels",
      description: "Labels to add, e.g. `bug`. Labels that do not exist are created.",
      optional: true,
    },
    assignees: {
      propDefinition: [
        github,
        "collaborators",
        (c) => ({
          repoFullname: c.repo,
        }),
      ],
      label: "Assignees",
      optional: true,
    },
  },
  async run({ $ }) {
    const issue = await this.github.createIssue({
      repoFullname: this.repo,
      data: {
        title: this.title,
        body: this.body,
        labels: this.labels,
        assignees: this.assignees,
      },
    });
    $.export("$summary", `Created issue #${issue.number}: ${issue.html_url}`);
    return issue;
  },
};
"""

_OPENAI_CHAT = r"""import { axios } from "@pipedream/platform";

export default {
  key: "openai-chat",
  name: "Chat",
  description: "Send a conversation to a chat model and return its reply. [See the documentation](https://platform.openai.com/docs/api-reference/chat/create)",
  version: "0.2.8",
  type: "action",
  props: {
    openai: {
      type: "app",
      app: "openai",
    },
    model: {
      type: "string",
      label: "Model",
      description: "The model that generates the reply.",
      options: [
        {
          label: "GPT-4o",
          value: "gpt-4o",
        },
        {
          label: "GPT-4o mini",
          value: "gpt-4o-mini",
        },
        {
          label: "GPT-4 Turbo",
          value: "gpt-4-turbo",
        },
        {
          label: "GPT-3.5 Turbo",
          value: "gpt-3.5-turbo",
        },
      ],
      default: "gpt-4o-mini",
      optional: true,
    },
    messages: {
      type: "object[]",
      label: "Messages",
      description: "The conversation so far, each item `{ \"role\": \"system\" | \"user\" | \"assistant\", \"content\": \"...\" }`.",
    },
    maxTokens: {
      type: "integer",
      label: "Max Tokens",
      description: "The maximum number of tokens to generate in the reply.",
      min: 1,
      max: 4096,
      default: 1024,
      optional: true,
    },
    temperature: {
      type: "string",
      label: "Temperature",
      description: "Sampling temperature between `0` and `2`. Higher values make the output more random.",
      optional: true,
    },
    organization: {
      type: "string",
      label: "Organization ID",
      description: "Bill requests to this organization (`org-...`) when your key belongs to several.",
      secret: true,
      optional: true,
    },
    apiBaseUrl: {
      type: "string",
      label: "API Base URL",
      description: "Internal: the base URL of the API.",
      default: "https://api.openai.com/v1",
      optional: true,
      hidden: true,
    },
    stream: {
      type: "boolean",
      label: "Stream Response",
      description: "Streaming is not available inside workflow steps.",
      default: false,
      optional: true,
      disabled: true,
    },
  },
  async run({ $ }) {
    const response = await axios($, {
      method: "POST",
      url: `${this.apiBaseUrl ?? "https://api.openai.com/v1"}/chat/completions`,
      headers: {
        "Authorization": `Bearer ${this.openai.$auth.api_key}`,
        ...(this.organization
          ? {
            "OpenAI-Organization": this.organization,
          }
          : {}),
      },
      data: {
        model: this.model ?? "gpt-4o-mini",
        messages: this.messages,
        max_tokens: this.maxTokens,
        temperature: this.temperature
          ? parseFloat(this.temperature)
          : undefined,
      },
    });
    $.export("$summary", `Chat completion used ${response.usage.total_tokens} tokens`);
    return response;
  },
};
"""

_TWILIO_SEND_SMS = r"""import twilio from "../../twilio.app.mjs";

export default {
  key: "twilio-send-sms",
  name: "Send SMS",
  description: "Send an SMS or MMS message from one of your Twilio numbers. [See the documentation](https://www.twilio.com/docs/sms/api/message-resource#create-a-message-resource)",
  version: "0.1.5",
  type: "action",
  props: {
    twilio,
    from: {
      type: "string",
      label: "From",
      description: "A Twilio phone number you own, in [E.164](https://www.twilio.com/docs/glossary/what-e164) format.",
      async options() {
        const numbers = await this.twilio.listIncomingPhoneNumbers();
        return numbers.map((n) => ({
          label: n.friendlyName,
          value: n.phoneNumber,
        }));
      },
    },
    to: {
      type: "string",
      label: "To",
      description: "The destination number in E.164 format, e.g. `+15551234567`.",
    },
    body: {
      type: "string",
      label: "Message Body",
      description: "The text of the message, up to 1,600 characters.",
    },
    mediaUrl: {
      type: "string[]",
      label: "Media URLs",
      description: "Public URLs of images to send as MMS (US and Canada only).",
      optional: true,
    },
  },
  async run({ $ }) {
    const message = await this.twilio.getClient().messages.create({
      from: this.from,
      to: this.to,
      body: this.body,
      mediaUrl: this.mediaUrl,
    });
    $.export("$summary", `Sent SMS ${message.sid} to ${this.to}`);
    return message;
  },
};
"""

_DATADOG_POST_METRIC = r"""import datadog from "../../datadog.app.mjs";

export default {
  key: "datadog-post-metric-data",
  name: "Post Metric Data",
  description: "Submit data points for a metric to Datadog. [See the documentation](https://docs.datadoghq.com/api/latest/metrics/#submit-metrics)",
  version: "0.0.6",
  type: "action",
  props: {
    datadog,
    metric: {
      type: "string",
      label: "Metric",
      description: "The metric name, e.g. `orders.processed`.",
    },
    type: {
      type: "string",
      label: "Type",
      description: "The metric type.",
      options: [
        "gauge",
        "count",
        "rate",
      ],
      default: "gauge",
      optional: true,
    },
    points: {
      type: "integer[]",
      label: "Values",
      description: "One or more values, each submitted as a point at the current time.",
    },
    tags: {
      type: "string[]",
      label: "Tags",
      description: "Tags in `key:value` form, e.g. `env:prod`.",
      optional: true,
    },
  },
  async run({ $ }) {
    const now = Math.floor(Date.now() / 1000);
    const response = await this.datadog.postMetricData({
      $,
      data: {
        series: [
          {
            metric: this.metric,
            type: this.type ?? "gauge",
            points: this.points.map((value) => [
              now,
              value,
            ]),
            tags: this.tags,
          },
        ],
      },
    });
    $.export("$summary", `Posted ${this.points.length} point(s) to ${this.metric}`);
    return response;
  },
};
"""

_TRELLO_UPDATE_CHECKLIST_ITEMS = r"""import trello from "../../trello.app.mjs";

export default {
  key: "trello-complete-checklist-items",
  name: "Complete Checklist Items",
  description: "Mark checklist items on a card as complete or incomplete. [See the documentation](https://developer.atlassian.com/cloud/trello/rest/api-group-cards/#api-cards-idcard-checkitem-idcheckitem-put)",
  version: "0.0.3",
  type: "action",
  props: {
    trello,
    card: {
      propDefinition: [
        trello,
        "cards",
      ],
      label: "Card",
    },
    checkItemIds: {
      type: "string[]",
      label: "Checklist Item IDs",
      description: "The IDs of the checklist items to update.",
    },
    complete: {
      type: "boolean[]",
      label: "Complete",
      description: "For each item, in the same order, `true` to mark it complete or `false` to mark it incomplete.",
    },
  },
  async run({ $ }) {
    if (this.complete.length !== this.checkItemIds.length) {
      throw new Error("Provide one `Complete` value per checklist item");
    }
    const results = [];
    for (const [
      i,
      id,
    ] of this.checkItemIds.entries()) {
      results.push(await this.trello.updateCheckItem({
        $,
        cardId: this.card,
        checkItemId: id,
        state: this.complete[i]
          ? "complete"
          : "incomplete",
      }));
    }
    $.export("$summary", `Updated ${results.length} checklist item(s)`);
    return results;
  },
};
"""

_DEMO_VALIDATE_FIELDS = r"""export default {
  key: "demo-validate-fields",
  name: "Validate Required Fields",
  description: "Fail the run when the triggering event lacks any of the required fields. Checks the request body for HTTP triggers and the event itself otherwise.",
  version: "0.1.0",
  type: "action",
  props: {
    required_fields: {
      type: "string[]",
      label: "Required Fields",
      description: "Top-level field names that must be present and not empty, e.g. `order_id`.",
    },
  },
  async run({
    steps, $,
  }) {
    const event = steps.trigger.event;
    const payload = event.body ?? event;
    const missing = this.required_fields.filter((field) => payload[field] === undefined
      || payload[field] === null
      || payload[field] === "");
    if (missing.length) {
      throw new Error(`Missing required field(s): ${missing.join(", ")}`);
    }
    $.export("$summary", `All ${this.required_fields.length} required field(s) present`);
    return payload;
  },
};
"""

_DEMO_TRANSFORM = r"""export default {
  key: "demo-transform",
  name: "Transform Event",
  description: "Upper-case some string fields of the previous step's result (or the trigger event) and merge extra fields into it.",
  version: "0.1.0",
  type: "action",
  props: {
    uppercase: {
      type: "string[]",
      label: "Upper-case Fields",
      description: "String fields whose values are converted to UPPER CASE.",
      optional: true,
    },
    add_fields: {
      type: "object",
      label: "Add Fields",
      description: "Fields merged into the result; they override fields of the same name.",
      optional: true,
    },
  },
  async run({
    steps, $,
  }) {
    const names = Object.keys(steps).filter((name) => name !== "trigger");
    const previous = names.length
      ? steps[names[names.length - 1]].$return_value
      : undefined;
    const data = {
      ...(previous ?? steps.trigger.event),
    };
    for (const field of this.uppercase ?? []) {
      if (typeof data[field] === "string") {
        data[field] = data[field].toUpperCase();
      }
    }
    Object.assign(data, this.add_fields ?? {});
    $.export("$summary", `Transformed ${Object.keys(data).length} field(s)`);
    return data;
  },
};
"""

_DEMO_EMIT = r"""export default {
  key: "demo-emit",
  name: "Emit Event",
  description: "Emit the result of the previous step (or the trigger event) to the workflow's emit destination, where subscriptions and webhooks pick it up.",
  version: "0.1.0",
  type: "action",
  props: {},
  async run({
    steps, $,
  }) {
    const names = Object.keys(steps).filter((name) => name !== "trigger");
    const last = names.length
      ? steps[names[names.length - 1]].$return_value
      : undefined;
    const event = last ?? steps.trigger.event;
    $.send.emit({
      raw_event: event,
    });
    $.export("$summary", "Emitted 1 event");
    return event;
  },
};
"""

_DEMO_FAIL_RATE = r"""export default {
  key: "demo-fail-rate",
  name: "Fail Randomly",
  description: "Throw an error on a given percentage of runs, to exercise error handling and `$errors` listeners.",
  version: "0.1.0",
  type: "action",
  props: {
    failure_rate: {
      type: "integer",
      label: "Failure Rate (%)",
      description: "The percentage of runs that fail, from `0` (never) to `100` (always).",
      min: 0,
      max: 100,
    },
  },
  async run({ $ }) {
    if (Math.random() * 100 < this.failure_rate) {
      const err = new Error(`Simulated failure (failure rate ${this.failure_rate}%)`);
      err.code = "SIMULATED_FAILURE";
      throw err;
    }
    $.export("$summary", "Passed");
  },
};
"""

_DEMO_CALL_URL = r"""import { axios } from "@pipedream/platform";

export default {
  key: "demo-call-url",
  name: "Call URL",
  description: "Send the previous step's result (or the trigger event) to a URL and return the response. Non-2xx responses fail the step.",
  version: "0.1.0",
  type: "action",
  props: {
    url: {
      type: "string",
      label: "URL",
      description: "The URL to call, e.g. `https://partner.example.com/api/sync`.",
    },
    method: {
      type: "string",
      label: "Method",
      description: "The HTTP method. `GET` sends no body.",
      options: [
        "GET",
        "POST",
        "PUT",
      ],
      default: "POST",
      optional: true,
    },
  },
  async run({
    steps, $,
  }) {
    const method = this.method ?? "POST";
    const names = Object.keys(steps).filter((name) => name !== "trigger");
    const previous = names.length
      ? steps[names[names.length - 1]].$return_value
      : undefined;
    const response = await axios($, {
      method,
      url: this.url,
      data: method === "GET"
        ? undefined
        : previous ?? steps.trigger.event,
      returnFullResponse: true,
    });
    $.export("$summary", `${method} ${this.url} returned ${response.status}`);
    return response.data;
  },
};
"""

REGISTRY: dict[str, str] = {
    # sources
    "http-new-requests": _HTTP_NEW_REQUESTS,
    "http-custom-response": _HTTP_CUSTOM_RESPONSE,
    "schedule-every-interval": _SCHEDULE_EVERY_INTERVAL,
    "schedule-cron-expression": _SCHEDULE_CRON_EXPRESSION,
    "github-new-issue": _GITHUB_NEW_ISSUE,
    "slack-new-message-in-channels": _SLACK_NEW_MESSAGE_IN_CHANNELS,
    "stripe-new-payment": _STRIPE_NEW_PAYMENT,
    "rss-new-item-in-feed": _RSS_NEW_ITEM_IN_FEED,
    "google_sheets-new-row-added": _GOOGLE_SHEETS_NEW_ROW_ADDED,
    "postgresql-new-row": _POSTGRESQL_NEW_ROW,
    # actions
    "slack-send-message": _SLACK_SEND_MESSAGE,
    "http-send-request": _HTTP_SEND_REQUEST,
    "data_stores-add-update-record": _DATA_STORES_ADD_UPDATE_RECORD,
    "github-create-issue": _GITHUB_CREATE_ISSUE,
    "openai-chat": _OPENAI_CHAT,
    "twilio-send-sms": _TWILIO_SEND_SMS,
    "datadog-post-metric-data": _DATADOG_POST_METRIC,
    "trello-complete-checklist-items": _TRELLO_UPDATE_CHECKLIST_ITEMS,
    # built-in demo step behaviours run by the emulator inside workflows
    "demo-validate-fields": _DEMO_VALIDATE_FIELDS,
    "demo-transform": _DEMO_TRANSFORM,
    "demo-emit": _DEMO_EMIT,
    "demo-fail-rate": _DEMO_FAIL_RATE,
    "demo-call-url": _DEMO_CALL_URL,
}


# --------------------------------------------------------------------------
# Workflow templates
# --------------------------------------------------------------------------

TEMPLATES: tuple[dict, ...] = (
    {
        "id": "tch_3Lm9Qa",
        "name": "Validate and forward orders",
        "description": (
            "Receive orders on an HTTP endpoint, reject those without an order ID or "
            "customer email, normalise them and emit them to subscribers."
        ),
        "triggers": [
            {"kind": "http", "custom_response": False},
        ],
        "steps": [
            {
                "namespace": "validate",
                "component_key": "demo-validate-fields",
                "props": {"required_fields": ["order_id", "customer_email"]},
            },
            {
                "namespace": "transform",
                "component_key": "demo-transform",
                "props": {
                    "uppercase": ["country", "currency"],
                    "add_fields": {"source": "webshop", "pipeline": "orders-v2"},
                },
            },
            {
                "namespace": "emit",
                "component_key": "demo-emit",
                "props": {},
            },
        ],
    },
    {
        "id": "tch_8Wd2Kc",
        "name": "Nightly report",
        "description": (
            "Every night at 02:00 UTC, fetch yesterday's metrics from the reporting API, "
            "tag them and emit a report event."
        ),
        "triggers": [
            {"kind": "timer", "cron": "0 2 * * *", "timezone": "UTC"},
        ],
        "steps": [
            {
                "namespace": "fetch_metrics",
                "component_key": "demo-call-url",
                "props": {
                    "url": "https://reports.example.com/api/v1/metrics/daily",
                    "method": "GET",
                },
            },
            {
                "namespace": "format",
                "component_key": "demo-transform",
                "props": {"add_fields": {"report": "nightly", "timezone": "UTC"}},
            },
            {
                "namespace": "emit",
                "component_key": "demo-emit",
                "props": {},
            },
        ],
    },
    {
        "id": "tch_Gh5rT1",
        "name": "GitHub issues to Slack",
        "description": "Post a message to a Slack channel whenever an issue is opened in a GitHub repository.",
        "triggers": [
            {"kind": "source", "component_key": "github-new-issue"},
        ],
        "steps": [
            {
                "namespace": "send_message",
                "component_key": "slack-send-message",
                "props": {
                    "text": (
                        ":github: New issue <{{steps.trigger.event.html_url}}|"
                        "#{{steps.trigger.event.number}} {{steps.trigger.event.title}}> "
                        "opened by {{steps.trigger.event.user.login}}"
                    ),
                    "asUser": False,
                },
            },
        ],
    },
    {
        "id": "tch_Em4xV7",
        "name": "Inbound email triage",
        "description": (
            "Give the workflow an email address; check each message has a sender and "
            "subject, tag it for the support queue and emit it."
        ),
        "triggers": [
            {"kind": "email"},
        ],
        "steps": [
            {
                "namespace": "validate",
                "component_key": "demo-validate-fields",
                "props": {"required_fields": ["from", "subject"]},
            },
            {
                "namespace": "tag",
                "component_key": "demo-transform",
                "props": {
                    "uppercase": ["priority"],
                    "add_fields": {"queue": "support", "triaged": True},
                },
            },
            {
                "namespace": "emit",
                "component_key": "demo-emit",
                "props": {},
            },
        ],
    },
    {
        "id": "tch_Fk7pZ2",
        "name": "Flaky partner sync",
        "description": (
            "Every hour, push data to a partner API that fails about one time in five: "
            "a handy source of `$errors` events to practise replays on."
        ),
        "triggers": [
            {"kind": "timer", "interval_seconds": 3600},
        ],
        "steps": [
            {
                "namespace": "partner_outage",
                "component_key": "demo-fail-rate",
                "props": {"failure_rate": 20},
            },
            {
                "namespace": "sync",
                "component_key": "demo-call-url",
                "props": {
                    "url": "https://partner.example.com/api/sync",
                    "method": "POST",
                },
            },
        ],
    },
    {
        "id": "tch_Wr6hN0",
        "name": "Acknowledge and relay webhooks",
        "description": (
            "Answer webhook callers from the workflow itself and relay every payload to subscribers of the workflow."
        ),
        "triggers": [
            {"kind": "http", "custom_response": True},
        ],
        "steps": [
            {
                "namespace": "relay",
                "component_key": "demo-emit",
                "props": {},
            },
        ],
    },
)
