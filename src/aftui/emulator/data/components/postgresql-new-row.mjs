import postgresql from "../../postgresql.app.mjs";

export default {
  key: "postgresql-new-row",
  name: "New Row",
  description: "Emit new event when a new row is added to a table. [See the documentation](https://node-postgres.com/features/queries)",
  version: "2.0.5",
  type: "source",
  dedupe: "greatest",
  props: {
    postgresql,
    db: "$.service.db",
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 300,
      },
    },
    alert: {
      type: "alert",
      alertType: "warning",
      content: "The column must be **unique and increasing**, such as a serial `id` or a `created_at` timestamp. Rows whose value is not greater than the last one seen are skipped.",
    },
    table: {
      type: "string",
      label: "Table",
      description: "The table to watch.",
      options: [
        {
          label: "public.orders",
          value: "orders",
        },
        {
          label: "public.customers",
          value: "customers",
        },
        {
          label: "public.invoices",
          value: "invoices",
        },
        {
          label: "audit.events",
          value: "audit.events",
        },
      ],
    },
    column: {
      type: "string",
      label: "Column",
      description: "An increasing column used to find new rows, e.g. `id`.",
      default: "id",
      optional: true,
    },
    query: {
      type: "any",
      label: "Custom Query",
      description: "Replace the generated query. Either SQL text using `$1` for the last value seen, or an object `{ text, values }`.",
      optional: true,
    },
    filters: {
      type: "object",
      label: "Filters",
      description: "Equality filters as column/value pairs, e.g. `{ \"status\": \"paid\" }`.",
      optional: true,
    },
  },
  methods: {
    _getLastValue() {
      return this.db.get("lastValue") ?? 0;
    },
    _setLastValue(value) {
      this.db.set("lastValue", value);
    },
    buildQuery(lastValue) {
      const column = this.column ?? "id";
      if (typeof this.query === "string") {
        return {
          text: this.query,
          values: [
            lastValue,
          ],
        };
      }
      if (this.query) {
        return this.query;
      }
      const filters = Object.entries(this.filters ?? {});
      const where = [
        `"${column}" > $1`,
        ...filters.map(([
          key,
        ], i) => `"${key}" = $${i + 2}`),
      ].join(" AND ");
      return {
        text: `SELECT * FROM ${this.table} WHERE ${where} ORDER BY "${column}" ASC LIMIT 100`,
        values: [
          lastValue,
          ...filters.map(([
            , value,
          ]) => value),
        ],
      };
    },
  },
  async run() {
    const column = this.column ?? "id";
    const rows = await this.postgresql.executeQuery(this.buildQuery(this._getLastValue()));
    for (const row of rows) {
      this.$emit(row, {
        id: Number(row[column]),
        summary: `New row in ${this.table}: ${column} = ${row[column]}`,
        ts: Date.now(),
      });
    }
    if (rows.length) {
      this._setLastValue(rows[rows.length - 1][column]);
    }
  },
};
