import datadog from "../../datadog.app.mjs";

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
