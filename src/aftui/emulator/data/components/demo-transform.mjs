export default {
  key: "demo-transform",
  name: "Transform Event",
  description: "Upper-case some string fields of the previous step's result (or the trigger event) and merge extra fields into it.",
  version: "0.1.0",
  type: "action",
  props: {
    uppercase: {
      type: "string[]",
      label: "Upper-case Fields",
      description: "String fields whose values are converted to UPPER CASE.",
      optional: true,
    },
    add_fields: {
      type: "object",
      label: "Add Fields",
      description: "Fields merged into the result; they override fields of the same name.",
      optional: true,
    },
  },
  async run({
    steps, $,
  }) {
    const names = Object.keys(steps).filter((name) => name !== "trigger");
    const previous = names.length
      ? steps[names[names.length - 1]].$return_value
      : undefined;
    const data = {
      ...(previous ?? steps.trigger.event),
    };
    for (const field of this.uppercase ?? []) {
      if (typeof data[field] === "string") {
        data[field] = data[field].toUpperCase();
      }
    }
    Object.assign(data, this.add_fields ?? {});
    $.export("$summary", `Transformed ${Object.keys(data).length} field(s)`);
    return data;
  },
};
