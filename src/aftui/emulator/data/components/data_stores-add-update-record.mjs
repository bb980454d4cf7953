export default {
  key: "data_stores-add-update-record",
  name: "Add or update a single record",
  description: "Add a new record or update an existing one in a data store, by key.",
  version: "0.0.10",
  type: "action",
  props: {
    dataStore: {
      type: "data_store",
      label: "Data Store",
      description: "Select an existing data store or create a new one.",
    },
    key: {
      type: "string",
      label: "Key",
      description: "The key of the record, e.g. `customer:{{steps.trigger.event.body.id}}`.",
    },
    value: {
      type: "any",
      label: "Value",
      description: "Any JSON-serializable value. Strings that contain JSON are parsed first.",
    },
    ttl: {
      type: "integer",
      label: "Time to Live (seconds)",
      description: "Remove the record after this many seconds. Leave empty to keep it forever.",
      min: 0,
      optional: true,
    },
  },
  methods: {
    parseValue(value) {
      if (typeof value !== "string") {
        return value;
      }
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    },
  },
  async run({ $ }) {
    const exists = await this.dataStore.has(this.key);
    const value = this.parseValue(this.value);
    await this.dataStore.set(this.key, value, this.ttl
      ? {
        ttl: this.ttl,
      }
      : undefined);
    $.export("$summary", `Successfully ${exists ? "updated" : "added"} record \`${this.key}\``);
    return {
      key: this.key,
      value,
    };
  },
};
