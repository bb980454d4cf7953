import { axios } from "@pipedream/platform";

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
