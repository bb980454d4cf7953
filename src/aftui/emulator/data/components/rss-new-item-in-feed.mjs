import { axios } from "@pipedream/platform";
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
