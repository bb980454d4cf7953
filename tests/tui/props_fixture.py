"""A source component whose props cover every prop type and property of the spec (for the props form tests)."""

EVERY_PROP_CODE = r"""export default {
  key: "every-prop-type",
  name: "Every Prop Type",
  version: "0.1.0",
  type: "source",
  description: "One prop of each type, for the props form.",
  props: {
    github: { type: "app", app: "github" },
    db: "$.service.db",
    http: { type: "$.interface.http", customResponse: true },
    timer: { type: "$.interface.timer", label: "Schedule", default: { intervalSeconds: 900 } },
    notice: { type: "alert", alertType: "warning", content: "Changes apply on the **next** run." },
    title: { type: "string", label: "Title", description: "Shown in `summary`; see [the docs](https://example.com/docs)." },
    token: { type: "string", label: "API token", secret: true, optional: true },
    limit: { type: "integer", label: "Limit", min: 1, max: 100, default: 10, optional: true },
    verbose: { type: "boolean", label: "Verbose", optional: true, default: false, reloadProps: true },
    filters: { type: "object", label: "Filters", optional: true },
    payload: { type: "any", label: "Payload", optional: true },
    tags: { type: "string[]", label: "Tags", optional: true },
    sizes: { type: "integer[]", label: "Sizes", optional: true },
    region: { type: "string", label: "Region", options: ["eu", "us"], optional: true, default: "eu" },
    table: { type: "string", label: "Table", options: [{ label: "Orders", value: "orders" }, { label: "Customers", value: "customers" }] },
    store: { type: "data_store", label: "Data store", optional: true },
    request: { type: "http_request", label: "Request", optional: true },
    internal: { type: "string", label: "Internal", hidden: true, optional: true, default: "x" },
    frozen: { type: "boolean", label: "Frozen", disabled: true, optional: true },
  },
  async run(event) {
    this.$emit(event, { summary: this.title });
  },
};
"""
