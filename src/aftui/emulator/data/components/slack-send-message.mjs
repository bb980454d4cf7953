import slack from "../../slack.app.mjs";

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
