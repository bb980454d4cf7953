export default {
  key: "demo-fail-rate",
  name: "Fail Randomly",
  description: "Throw an error on a given percentage of runs, to exercise error handling and `$errors` listeners.",
  version: "0.1.0",
  type: "action",
  props: {
    failure_rate: {
      type: "integer",
      label: "Failure Rate (%)",
      description: "The percentage of runs that fail, from `0` (never) to `100` (always).",
      min: 0,
      max: 100,
    },
  },
  async run({ $ }) {
    if (Math.random() * 100 < this.failure_rate) {
      const err = new Error(`Simulated failure (failure rate ${this.failure_rate}%)`);
      err.code = "SIMULATED_FAILURE";
      throw err;
    }
    $.export("$summary", "Passed");
  },
};
