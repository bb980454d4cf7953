import google_sheets from "../../google_sheets.app.mjs";

export default {
  key: "google_sheets-new-row-added",
  name: "New Row Added",
  description: "Emit new event each time a row or rows are added to the bottom of a worksheet. [See the documentation](https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/get)",
  version: "0.2.4",
  type: "source",
  dedupe: "last",
  props: {
    google_sheets,
    db: "$.service.db",
    alert: {
      type: "alert",
      alertType: "info",
      content: "Rows are checked every 15 minutes.",
    },
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 900,
      },
    },
    sheetId: {
      type: "string",
      label: "Spreadsheet ID",
      description: "The ID in the spreadsheet URL: `https://docs.google.com/spreadsheets/d/<spreadsheetId>/edit`.",
    },
    worksheet: {
      type: "integer",
      label: "Worksheet ID",
      description: "The `gid` of the worksheet (tab), shown in the URL after `#gid=`. The first tab is usually `0`.",
      min: 0,
    },
  },
  methods: {
    _getRowCount() {
      return this.db.get(`rowCount:${this.worksheet}`) ?? 0;
    },
    _setRowCount(count) {
      this.db.set(`rowCount:${this.worksheet}`, count);
    },
  },
  async run() {
    const sheets = this.google_sheets.sheets();
    const { data: spreadsheet } = await sheets.spreadsheets.get({
      spreadsheetId: this.sheetId,
    });
    const tab = spreadsheet.sheets.find((s) => s.properties.sheetId === this.worksheet);
    if (!tab) {
      throw new Error(`Worksheet ${this.worksheet} not found in spreadsheet ${this.sheetId}`);
    }
    const { data } = await sheets.spreadsheets.values.get({
      spreadsheetId: this.sheetId,
      range: tab.properties.title,
    });
    const rows = data.values ?? [];
    const seen = this._getRowCount();
    rows.slice(seen).forEach((row, i) => {
      const rowNumber = seen + i + 1;
      this.$emit({
        newRow: row,
        rowNumber,
        worksheet: tab.properties.title,
      }, {
        id: `${this.sheetId}-${this.worksheet}-${rowNumber}`,
        summary: `New row #${rowNumber} in ${tab.properties.title}`,
        ts: Date.now(),
      });
    });
    this._setRowCount(rows.length);
  },
};
