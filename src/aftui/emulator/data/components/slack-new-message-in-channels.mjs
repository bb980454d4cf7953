import slack from "../../slack.app.mjs";

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
