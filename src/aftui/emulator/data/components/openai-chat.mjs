import { axios } from "@pipedream/platform";

export default {
  key: "openai-chat",
  name: "Chat",
  description: "Send a conversation to a chat model and return its reply. [See the documentation](https://platform.openai.com/docs/api-reference/chat/create)",
  version: "0.2.8",
  type: "action",
  props: {
    openai: {
      type: "app",
      app: "openai",
    },
    model: {
      type: "string",
      label: "Model",
      description: "The model that generates the reply.",
      options: [
        {
          label: "GPT-4o",
          value: "gpt-4o",
        },
        {
          label: "GPT-4o mini",
          value: "gpt-4o-mini",
        },
        {
          label: "GPT-4 Turbo",
          value: "gpt-4-turbo",
        },
        {
          label: "GPT-3.5 Turbo",
          value: "gpt-3.5-turbo",
        },
      ],
      default: "gpt-4o-mini",
      optional: true,
    },
    messages: {
      type: "object[]",
      label: "Messages",
      description: "The conversation so far, each item `{ \"role\": \"system\" | \"user\" | \"assistant\", \"content\": \"...\" }`.",
    },
    maxTokens: {
      type: "integer",
      label: "Max Tokens",
      description: "The maximum number of tokens to generate in the reply.",
      min: 1,
      max: 4096,
      default: 1024,
      optional: true,
    },
    temperature: {
      type: "string",
      label: "Temperature",
      description: "Sampling temperature between `0` and `2`. Higher values make the output more random.",
      optional: true,
    },
    organization: {
      type: "string",
      label: "Organization ID",
      description: "Bill requests to this organization (`org-...`) when your key belongs to several.",
      secret: true,
      optional: true,
    },
    apiBaseUrl: {
      type: "string",
      label: "API Base URL",
      description: "Internal: the base URL of the API.",
      default: "https://api.openai.com/v1",
      optional: true,
      hidden: true,
    },
    stream: {
      type: "boolean",
      label: "Stream Response",
      description: "Streaming is not available inside workflow steps.",
      default: false,
      optional: true,
      disabled: true,
    },
  },
  async run({ $ }) {
    const response = await axios($, {
      method: "POST",
      url: `${this.apiBaseUrl ?? "https://api.openai.com/v1"}/chat/completions`,
      headers: {
        "Authorization": `Bearer ${this.openai.$auth.api_key}`,
        ...(this.organization
          ? {
            "OpenAI-Organization": this.organization,
          }
          : {}),
      },
      data: {
        model: this.model ?? "gpt-4o-mini",
        messages: this.messages,
        max_tokens: this.maxTokens,
        temperature: this.temperature
          ? parseFloat(this.temperature)
          : undefined,
      },
    });
    $.export("$summary", `Chat completion used ${response.usage.total_tokens} tokens`);
    return response;
  },
};
