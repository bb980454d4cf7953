import twilio from "../../twilio.app.mjs";

export default {
  key: "twilio-send-sms",
  name: "Send SMS",
  description: "Send an SMS or MMS message from one of your Twilio numbers. [See the documentation](https://www.twilio.com/docs/sms/api/message-resource#create-a-message-resource)",
  version: "0.1.5",
  type: "action",
  props: {
    twilio,
    from: {
      type: "string",
      label: "From",
      description: "A Twilio phone number you own, in [E.164](https://www.twilio.com/docs/glossary/what-e164) format.",
      async options() {
        const numbers = await this.twilio.listIncomingPhoneNumbers();
        return numbers.map((n) => ({
          label: n.friendlyName,
          value: n.phoneNumber,
        }));
      },
    },
    to: {
      type: "string",
      label: "To",
      description: "The destination number in E.164 format, e.g. `+15551234567`.",
    },
    body: {
      type: "string",
      label: "Message Body",
      description: "The text of the message, up to 1,600 characters.",
    },
    mediaUrl: {
      type: "string[]",
      label: "Media URLs",
      description: "Public URLs of images to send as MMS (US and Canada only).",
      optional: true,
    },
  },
  async run({ $ }) {
    const message = await this.twilio.getClient().messages.create({
      from: this.from,
      to: this.to,
      body: this.body,
      mediaUrl: this.mediaUrl,
    });
    $.export("$summary", `Sent SMS ${message.sid} to ${this.to}`);
    return message;
  },
};
