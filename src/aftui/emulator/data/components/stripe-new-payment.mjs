import stripe from "../../stripe.app.mjs";

export default {
  key: "stripe-new-payment",
  name: "New Payment",
  description: "Emit new event when a payment intent succeeds. A webhook endpoint is registered in your Stripe account on activation. [See the documentation](https://stripe.com/docs/api/webhook_endpoints)",
  version: "0.1.9",
  type: "source",
  dedupe: "unique",
  props: {
    stripe,
    db: "$.service.db",
    http: {
      type: "$.interface.http",
      customResponse: true,
    },
    minAmount: {
      type: "integer",
      label: "Minimum Amount",
      description: "Only emit payments of at least this amount, in the **smallest currency unit** (e.g. cents: `1000` is $10.00).",
      min: 0,
      optional: true,
    },
  },
  hooks: {
    async activate() {
      const endpoint = await this.stripe.sdk().webhookEndpoints.create({
        url: this.http.endpoint,
        enabled_events: [
          "payment_intent.succeeded",
        ],
        description: "Workflow source: New Payment",
      });
      this.db.set("webhookId", endpoint.id);
      this.db.set("webhookSecret", endpoint.secret);
    },
    async deactivate() {
      const webhookId = this.db.get("webhookId");
      if (webhookId) {
        await this.stripe.sdk().webhookEndpoints.del(webhookId);
        this.db.set("webhookId", null);
        this.db.set("webhookSecret", null);
      }
    },
  },
  async run(event) {
    let stripeEvent;
    try {
      stripeEvent = this.stripe.sdk().webhooks.constructEvent(
        event.bodyRaw,
        event.headers["stripe-signature"],
        this.db.get("webhookSecret"),
      );
    } catch (err) {
      this.http.respond({
        status: 400,
        body: err.message,
      });
      console.log(`Signature verification failed: ${err.message}`);
      return;
    }
    this.http.respond({
      status: 200,
    });
    const payment = stripeEvent.data.object;
    if (this.minAmount && payment.amount < this.minAmount) {
      return;
    }
    this.$emit(payment, {
      id: stripeEvent.id,
      summary: `Payment ${payment.id}: ${(payment.amount / 100).toFixed(2)} ${payment.currency.toUpperCase()}`,
      ts: stripeEvent.created * 1000,
    });
  },
};
