import trello from "../../trello.app.mjs";

export default {
  key: "trello-complete-checklist-items",
  name: "Complete Checklist Items",
  description: "Mark checklist items on a card as complete or incomplete. [See the documentation](https://developer.atlassian.com/cloud/trello/rest/api-group-cards/#api-cards-idcard-checkitem-idcheckitem-put)",
  version: "0.0.3",
  type: "action",
  props: {
    trello,
    card: {
      propDefinition: [
        trello,
        "cards",
      ],
      label: "Card",
    },
    checkItemIds: {
      type: "string[]",
      label: "Checklist Item IDs",
      description: "The IDs of the checklist items to update.",
    },
    complete: {
      type: "boolean[]",
      label: "Complete",
      description: "For each item, in the same order, `true` to mark it complete or `false` to mark it incomplete.",
    },
  },
  async run({ $ }) {
    if (this.complete.length !== this.checkItemIds.length) {
      throw new Error("Provide one `Complete` value per checklist item");
    }
    const results = [];
    for (const [
      i,
      id,
    ] of this.checkItemIds.entries()) {
      results.push(await this.trello.updateCheckItem({
        $,
        cardId: this.card,
        checkItemId: id,
        state: this.complete[i]
          ? "complete"
          : "incomplete",
      }));
    }
    $.export("$summary", `Updated ${results.length} checklist item(s)`);
    return results;
  },
};
