export default {
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
