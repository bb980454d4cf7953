export default {
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
