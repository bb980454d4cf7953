export default {
  key: "schedule-cron-expression",
  name: "Cron Schedule",
  description: "Emit an event on a cron schedule, e.g. `0 9 * * 1-5` for 9 AM on weekdays. [Crontab guru](https://crontab.guru) helps write expressions.",
  version: "0.1.6",
  type: "source",
  props: {
    timer: {
      type: "$.interface.timer",
      label: "Schedule",
      description: "A standard five-field cron expression.",
      default: {
        cron: "0 9 * * 1-5",
      },
    },
    timezone: {
      type: "string",
      label: "Timezone",
      description: "The IANA timezone the cron expression is evaluated in.",
      options: [
        "UTC",
        "America/New_York",
        "America/Los_Angeles",
        "Europe/London",
        "Europe/Berlin",
        "Asia/Tokyo",
        "Australia/Sydney",
      ],
      default: "UTC",
      optional: true,
    },
  },
  async run(event) {
    const { timestamp } = event;
    this.$emit({
      timestamp,
      cron: event.cron,
      timezone: this.timezone ?? "UTC",
    }, {
      id: timestamp,
      summary: `Scheduled run at ${new Date(timestamp * 1000).toISOString()}`,
      ts: timestamp * 1000,
    });
  },
};
