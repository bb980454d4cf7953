export default {
  key: "schedule-every-interval",
  name: "Custom Interval",
  description: "Emit an event on a regular interval, for example every 15 minutes.",
  version: "0.2.1",
  type: "source",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Interval",
      description: "How often to emit an event. The shortest interval is **15 seconds**.",
      default: {
        intervalSeconds: 900,
      },
    },
  },
  async run(event) {
    const {
      timestamp, interval_seconds: intervalSeconds,
    } = event;
    this.$emit({
      timestamp,
      intervalSeconds,
    }, {
      id: timestamp,
      summary: `Interval of ${intervalSeconds}s elapsed at ${new Date(timestamp * 1000).toISOString()}`,
      ts: timestamp * 1000,
    });
  },
};
