// Issue 29, item 2: the checkout's page comes back in the browser that started it (its httpOnly cookie), never in
// another one, and Cancel ends the checkout at once: its intent cancelled at Stripe, its username and email free.
import { describe, expect, it } from "vitest";
import { NAME_HELD } from "../../src/server/modules/auth/auth-service.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { CHECKOUT_ALREADY_PAID, MISSING_REGISTRATION, paymentsApi } from "../../src/shared/contracts/payments.js";
import type { StripeFake } from "../fakes/stripe-fake.js";
import type { CallInput } from "../helpers/api-call.js";
import { type CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";
import { checkoutForm, checkoutKit, checkoutStage } from "../helpers/checkout-kit.js";

type Options = { headers?: Record<string, string> };
const registration = (client: CookieClient, options: Options = {}) => client.call(paymentsApi.ownRegistration, {}, options);
const resume = (client: CookieClient, options: Options = {}) => client.call(paymentsApi.createPaymentIntent, { body: {} }, options);
const cancelFrom = (client: CookieClient) => client.call(paymentsApi.cancelCheckout, {});
const register = (client: CookieClient, body: CallInput<typeof authApi.register>["body"]) => client.call(authApi.register, { body });

let t: TestApp;
let fake: StripeFake;
const { browser, started, finish, intentOf } = checkoutKit(() => ({ app: t.app, fake }));

checkoutStage("whsec_test_resume_cancel", (stage) => {
  ({ t, fake } = stage);
});

describe("coming back to the checkout", () => {
  it("the browser that started it reads its display data (never the password) and resumes the same intent", async () => {
    const mine = await started();
    const read = await registration(mine.client);
    expect(read.status).toBe(200);
    // The whole body as sent.
    expect(read.response.json()).toEqual({
      registration: { username: mine.body.username, name: mine.body.name, email: mine.body.email, open: true },
    });
    expect(read.response.body).not.toContain(mine.body.password);
    const resumed = await resume(mine.client);
    expect(resumed.status).toBe(200);
    expect(resumed.data.paymentIntentId).toBe(mine.intentId);
  });

  it("another browser can neither read nor resume it, not even with the checkout's id in a forged cookie", async () => {
    const mine = await started();
    const other = browser();
    expect((await registration(other)).response.json()).toEqual({ registration: null });
    const resumedElsewhere = await resume(other);
    expect(resumedElsewhere.status).toBe(400);
    expect(resumedElsewhere.error.message).toBe(MISSING_REGISTRATION);
    const id = (mine.client.cookie("checkout") ?? "").split(".")[0];
    const headers = { cookie: `checkout=${id}.${"A".repeat(43)}` };
    expect((await registration(other, { headers })).response.json()).toEqual({ registration: null });
    expect((await resume(other, { headers })).status).toBe(400);
  });
});

describe("Cancel", () => {
  it("cancels the intent and frees the username and email at once", async () => {
    const mine = await started();
    const held = await register(browser(), { ...newAccount(), username: mine.body.username, planType: "free" });
    expect(held.error.errors?.username).toBe(NAME_HELD);

    const cancel = await cancelFrom(mine.client);
    expect(cancel.status).toBe(204);
    expect(intentOf(mine.intentId).status).toBe("canceled");
    // Another browser takes the same name and email at once (no 5 quiet minutes).
    const someoneElse = await register(browser(), {
      ...newAccount(),
      username: mine.body.username,
      email: mine.body.email,
      planType: "free",
    });
    expect(someoneElse.status, someoneElse.response.body).toBe(201);
    // The cancelled checkout is gone for its own browser too.
    expect((await resume(mine.client)).status).toBe(400);
    expect((await registration(mine.client)).response.json()).toEqual({ registration: null });
  });

  it("from another browser cancels nothing: the hold stays", async () => {
    const mine = await started();
    expect((await cancelFrom(browser())).status).toBe(204);
    expect(intentOf(mine.intentId).status).toBe("requires_payment_method");
    const taken = await browser().call(paymentsApi.createPaymentIntent, { body: checkoutForm({ username: mine.body.username }) });
    expect(taken.status).toBe(409);
  });

  it("after the payment went through answers 409 and the checkout still finishes", async () => {
    const mine = await started();
    fake.succeed(mine.intentId);
    const cancel = await cancelFrom(mine.client);
    expect(cancel.status).toBe(409);
    expect(cancel.error.message).toBe(CHECKOUT_ALREADY_PAID);
    const done = await finish(mine.client, mine.intentId);
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ username: mine.body.username, planType: "earlyAccess" });
  });
});
