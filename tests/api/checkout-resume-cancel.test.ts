// Issue 29, item 2: the checkout's page comes back in the browser that started it (its httpOnly cookie), never in
// another one, and Cancel ends the checkout at once: its intent cancelled at Stripe, its username and email free.
import { describe, expect, it } from "vitest";
import { NAME_HELD } from "../../src/server/modules/auth/auth-service.js";
import { CHECKOUT_ALREADY_PAID, MISSING_REGISTRATION } from "../../src/shared/contracts/payments.js";
import type { StripeFake } from "../fakes/stripe-fake.js";
import { newAccount, type TestApp } from "../helpers/build-test-app.js";
import { checkoutForm, checkoutKit, checkoutStage, START } from "../helpers/checkout-kit.js";

const REGISTRATION = "/api/early-access/registration";
const CANCEL = "/api/early-access/checkout/cancel";

let t: TestApp;
let fake: StripeFake;
const { browser, started, finish, intentOf } = checkoutKit(() => ({ app: t.app, fake }));

checkoutStage("whsec_test_resume_cancel", (stage) => {
  ({ t, fake } = stage);
});

describe("coming back to the checkout", () => {
  it("the browser that started it reads its display data (never the password) and resumes the same intent", async () => {
    const mine = await started();
    const read = await mine.client.get(REGISTRATION);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      registration: { username: mine.body.username, name: mine.body.name, email: mine.body.email, open: true },
    });
    expect(read.body).not.toContain(mine.body.password);
    const resumed = await mine.client.post(START, {});
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().paymentIntentId).toBe(mine.intentId);
  });

  it("another browser can neither read nor resume it, not even with the checkout's id in a forged cookie", async () => {
    const mine = await started();
    const other = browser();
    expect((await other.get(REGISTRATION)).json()).toEqual({ registration: null });
    const resume = await other.post(START, {});
    expect(resume.statusCode).toBe(400);
    expect(resume.json().message).toBe(MISSING_REGISTRATION);
    const id = (mine.client.cookie("checkout") ?? "").split(".")[0];
    const headers = { cookie: `checkout=${id}.${"A".repeat(43)}` };
    expect((await other.request({ method: "GET", url: REGISTRATION, headers })).json()).toEqual({ registration: null });
    expect((await other.request({ method: "POST", url: START, payload: {}, headers })).statusCode).toBe(400);
  });
});

describe("Cancel", () => {
  it("cancels the intent and frees the username and email at once", async () => {
    const mine = await started();
    const held = await browser().post("/api/register", newAccount({ username: mine.body.username }));
    expect(held.json().errors.username).toBe(NAME_HELD);

    const cancel = await mine.client.post(CANCEL, {});
    expect(cancel.statusCode).toBe(204);
    expect(intentOf(mine.intentId).status).toBe("canceled");
    // Another browser takes the same name and email at once (no 5 quiet minutes).
    const someoneElse = await browser().post("/api/register", newAccount({ username: mine.body.username, email: mine.body.email }));
    expect(someoneElse.statusCode, someoneElse.body).toBe(201);
    // The cancelled checkout is gone for its own browser too.
    expect((await mine.client.post(START, {})).statusCode).toBe(400);
    expect((await mine.client.get(REGISTRATION)).json()).toEqual({ registration: null });
  });

  it("from another browser cancels nothing: the hold stays", async () => {
    const mine = await started();
    expect((await browser().post(CANCEL, {})).statusCode).toBe(204);
    expect(intentOf(mine.intentId).status).toBe("requires_payment_method");
    const taken = await browser().post(START, checkoutForm({ username: mine.body.username }));
    expect(taken.statusCode).toBe(409);
  });

  it("after the payment went through answers 409 and the checkout still finishes", async () => {
    const mine = await started();
    fake.succeed(mine.intentId);
    const cancel = await mine.client.post(CANCEL, {});
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe(CHECKOUT_ALREADY_PAID);
    const done = await finish(mine.client, mine.intentId);
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ username: mine.body.username, planType: "earlyAccess" });
  });
});
