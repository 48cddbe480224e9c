// How long an unpaid Early Access checkout keeps its username and email from everyone else (issue 28, finding 6;
// decision 029): while its page is alive (start, resume and the page's status read renew it; 5 quiet minutes end
// it, however recent its start), and one address keeps at most 5 such holds at once, also when its starts race.
// The clock is moved by ageing the checkout's own timestamps, as the other checkout tests do.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EMAIL_HELD, NAME_HELD } from "../../src/server/modules/auth/auth-service.js";
import { HOLDS_PER_ADDRESS, TOO_MANY_HOLDS } from "../../src/server/modules/payments/checkout-holds.js";
import { CHECKOUT_ENDED } from "../../src/server/modules/payments/checkout-service.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { MISSING_REGISTRATION, paymentsApi } from "../../src/shared/contracts/payments.js";
import type { StripeFake } from "../fakes/stripe-fake.js";
import { newAccount, type TestApp } from "../helpers/build-test-app.js";
import { type Browser, type CheckoutForm, checkoutForm, checkoutKit, checkoutStage, newAddress } from "../helpers/checkout-kit.js";

const WEBHOOK_SECRET = "whsec_test_checkout_holds";
/** The email's owner: another password than the squatter's (who proves the password continues that checkout). */
const ownerForm = (email: string) => checkoutForm({ email, password: "Owner!pass9", confirmPassword: "Owner!pass9" });

/** Step 2's start (or, without a form, the browser's own checkout again), from this browser's address. */
const start = (client: Browser, body?: CheckoutForm) => client.call(paymentsApi.createPaymentIntent, { body });
/** A free sign-up with this username (from a new browser). */
function registerAs(username: string) {
  const { name, email, password } = newAccount();
  return browser().call(authApi.register, {
    body: { username, name: String(name), email: String(email), password: String(password), planType: "free" },
  });
}

let t: TestApp;
let fake: StripeFake;
const { browser, started, status, intentOf } = checkoutKit(() => ({ app: t.app, fake }));

checkoutStage(WEBHOOK_SECRET, (stage) => {
  ({ t, fake } = stage);
});

/** The checkout of this intent started `startedMinutesAgo` ago and its page was last seen `seenMinutesAgo` ago. */
async function setClock(intentId: string, startedMinutesAgo: number, seenMinutesAgo: number) {
  await t.database.db.execute(
    sql`update pending_checkouts set created_at = now() - make_interval(mins => ${startedMinutesAgo}),
        last_seen_at = now() - make_interval(mins => ${seenMinutesAgo}) where payment_intent_id = ${intentId}`,
  );
}
async function liveHoldsOf(ip: string) {
  const { rows } = await t.database.db.execute(
    sql`select count(*)::int as n from pending_checkouts where client_ip = ${ip} and status = 'pending' and last_seen_at > now() - interval '5 minutes'`,
  );
  return (rows[0] as { n: number }).n;
}

describe("a hold lasts while its checkout's page is alive", () => {
  it("keeps the email from its owner while the page reads it, even 40 minutes after the start", async () => {
    const squatter = await started();
    await setClock(squatter.intentId, 40, 1);
    const owner = await start(browser(), ownerForm(squatter.body.email));
    expect(owner.status).toBe(409);
    expect(owner.error.errors?.email).toBe(EMAIL_HELD);
    const name = await registerAs(squatter.body.username);
    expect(name.error.errors?.username).toBe(NAME_HELD);
  });

  it("gives the email back to its owner 5 minutes after the page went quiet, however recent the start", async () => {
    const squatter = await started();
    // Started 6 minutes ago, never read since: released (a flat 30 minutes no longer applies).
    await setClock(squatter.intentId, 6, 6);
    const owner = await started(ownerForm(squatter.body.email));
    expect(owner.intentId).not.toBe(squatter.intentId);
    await expect.poll(() => intentOf(squatter.intentId).status).toBe("canceled");
    // The quiet page comes back: its checkout was replaced.
    const back = await status(squatter.client, squatter.intentId);
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe(CHECKOUT_ENDED);
    expect((await registerAs(squatter.body.username)).status).toBe(201);
  });

  it("is renewed by the page's status read and resume, only for the browser that started it", async () => {
    const mine = await started();
    const seenLately = async () => {
      const { rows } = await t.database.db.execute(
        sql`select last_seen_at > now() - interval '1 minute' as fresh from pending_checkouts where payment_intent_id = ${mine.intentId}`,
      );
      return (rows[0] as { fresh: boolean }).fresh;
    };
    await setClock(mine.intentId, 20, 4);
    expect((await status(mine.client, mine.intentId)).json()).toEqual({ state: "open", holdIdleSeconds: 300 });
    expect(await seenLately()).toBe(true);
    await setClock(mine.intentId, 24, 4);
    expect((await start(mine.client)).status).toBe(200);
    expect(await seenLately()).toBe(true);
    // Another browser can neither keep it alive nor learn anything about it.
    await setClock(mine.intentId, 30, 4);
    const stranger = await status(browser(), mine.intentId);
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(MISSING_REGISTRATION);
    expect(await seenLately()).toBe(false);
    await setClock(mine.intentId, 32, 6);
    expect((await registerAs(mine.body.username)).status).toBe(201);
  });
});

describe("one address keeps a handful of live holds", () => {
  it(`refuses a ${HOLDS_PER_ADDRESS + 1}th hold from one address with 429, while another address and its own checkouts still go`, async () => {
    const ip = newAddress();
    const mine = [];
    for (let i = 0; i < HOLDS_PER_ADDRESS; i++) mine.push(await started(checkoutForm(), browser(ip)));
    const refused = await start(browser(ip), checkoutForm());
    expect(refused.status).toBe(429);
    expect(refused.error.message).toContain(TOO_MANY_HOLDS);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await liveHoldsOf(ip)).toBe(HOLDS_PER_ADDRESS);
    // Another address is not affected.
    expect((await start(browser(newAddress()), checkoutForm())).status).toBe(200);
    // A browser of the address continuing its own checkout is not a new hold.
    const first = mine[0];
    if (!first) throw new Error("no checkout");
    expect((await start(first.client, first.body)).status).toBe(200);
    expect((await start(first.client)).status).toBe(200);
    // One of them goes quiet: its room is free again.
    await setClock(first.intentId, 10, 6);
    expect((await start(browser(ip), checkoutForm())).status).toBe(200);
    // Its page coming back needs room too (the address is full again).
    const revived = await start(first.client, first.body);
    expect(revived.status).toBe(429);
  });

  it("holds the cap when one address starts many checkouts at the same moment", async () => {
    const ip = newAddress();
    const answers = await Promise.all(Array.from({ length: HOLDS_PER_ADDRESS + 3 }, () => start(browser(ip), checkoutForm())));
    const codes = answers.map((res) => res.status).sort();
    expect(codes).toEqual([...Array(HOLDS_PER_ADDRESS).fill(200), ...Array(3).fill(429)]);
    expect(await liveHoldsOf(ip)).toBe(HOLDS_PER_ADDRESS);
    // Meanwhile another address starts as usual.
    expect((await start(browser(newAddress()), checkoutForm())).status).toBe(200);
  });
});
