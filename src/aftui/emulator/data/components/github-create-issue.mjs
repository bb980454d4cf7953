import github from "../../github.app.mjs";

export default {
  key: "github-create-issue",
  name: "Create Issue",
  description: "Create a new issue in a repository. [See the documentation](https://docs.github.com/en/rest/issues/issues#create-an-issue)",
  version: "0.3.2",
  type: "action",
  props: {
    github,
    repo: {
      propDefinition: [
        github,
        "repo",
      ],
    },
    title: {
      type: "string",
      label: "Title",
      description: "The title of the issue.",
    },
    body: {
      type: "string",
      label: "Body",
      description: "The contents of the issue. GitHub-flavoured **Markdown** is supported.",
      optional: true,
    },
    labels: {
      type: "string[]",
      label: "Labels",
      description: "Labels to add, e.g. `bug`. Labels that do not exist are created.",
      optional: true,
    },
    assignees: {
      propDefinition: [
        github,
        "collaborators",
        (c) => ({
          repoFullname: c.repo,
        }),
      ],
      label: "Assignees",
      optional: true,
    },
  },
  async run({ $ }) {
    const issue = await this.github.createIssue({
      repoFullname: this.repo,
      data: {
        title: this.title,
        body: this.body,
        labels: this.labels,
        assignees: this.assignees,
      },
    });
    $.export("$summary", `Created issue #${issue.number}: ${issue.html_url}`);
    return issue;
  },
};
