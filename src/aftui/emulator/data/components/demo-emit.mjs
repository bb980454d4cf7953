export default {
  key: "demo-emit",
  name: "Emit Event",
  description: "Emit the result of the previous step (or the trigger event) to the workflow's emit destination, where subscriptions and webhooks pick it up.",
  version: "0.1.0",
  type: "action",
  props: {},
  async run({
    steps, $,
  }) {
    const names = Object.keys(steps).filter((name) => name !== "trigger");
    const last = names.length
      ? steps[names[names.length - 1]].$return_value
      : undefined;
    const event = last ?? steps.trigger.event;
    $.send.emit({
      raw_event: event,
    });
    $.export("$summary", "Emitted 1 event");
    return event;
  },
};
