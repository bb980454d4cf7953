import github from "../../github.app.mjs";

export default {
  key: "github-new-issue",
  name: "New Issue",
  description: "Emit new event when an issue is opened in a repository. Pull requests are skipped. [See the documentation](https://docs.github.com/en/rest/issues/issues#list-repository-issues)",
  version: "1.0.7",
  type: "source",
  dedupe: "unique",
  props: {
    github,
    db: "$.service.db",
    timer: {
      type: "$.interface.timer",
      default: {
        intervalSeconds: 300,
      },
    },
    repo: {
      propDefinition: [
        github,
        "repo",
      ],
    },
    labels: {
      type: "string[]",
      label: "Labels",
      description: "Only emit issues that carry **all** of these labels, e.g. `bug` or `needs-triage`.",
      optional: true,
    },
  },
  hooks: {
    async deploy() {
      const issues = await this.listIssues();
      for (const issue of issues.slice(0, 10).reverse()) {
        this.emitIssue(issue);
      }
      if (issues.length) {
        this._setLastCreatedAt(issues[0].created_at);
      }
    },
    async activate() {
      console.log(`Watching ${this.repo} for new issues`);
    },
    async deactivate() {
      this._setLastCreatedAt(null);
      console.log(`Stopped watching ${this.repo}`);
    },
  },
  methods: {
    _getLastCreatedAt() {
      return this.db.get("lastCreatedAt");
    },
    _setLastCreatedAt(createdAt) {
      this.db.set("lastCreatedAt", createdAt);
    },
    async listIssues(since) {
      const issues = await this.github.listIssues({
        repoFullname: this.repo,
        params: {
          state: "open",
          sort: "created",
          direction: "desc",
          labels: this.labels?.join(","),
          since,
          per_page: 100,
        },
      });
      return issues.filter((issue) => !issue.pull_request);
    },
    emitIssue(issue) {
      this.$emit(issue, {
        id: issue.id,
        summary: `#${issue.number} ${issue.title}`,
        ts: Date.parse(issue.created_at),
      });
    },
  },
  async run() {
    const lastCreatedAt = this._getLastCreatedAt();
    const issues = await this.listIssues(lastCreatedAt);
    const fresh = issues.filter((issue) => !lastCreatedAt || issue.created_at > lastCreatedAt);
    if (!fresh.length) {
      console.log("No new issues");
      return;
    }
    this._setLastCreatedAt(fresh[0].created_at);
    fresh.reverse().forEach((issue) => this.emitIssue(issue));
  },
};
