export default {
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
