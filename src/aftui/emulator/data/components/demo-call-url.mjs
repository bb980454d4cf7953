import { axios } from "@pipedream/platform";

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
