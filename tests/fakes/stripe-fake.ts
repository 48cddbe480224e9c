// A local stand-in for Stripe's REST API (PaymentIntents only) on 127.0.0.1, in Stripe's wire format: form-encoded bodies with
// bracket notation in, JSON out, Stripe's error bodies and statuses. The real `stripe` SDK talks to it through its
// `host` / `port` / `protocol: "http"` options; a browser stand-in of Stripe.js confirms with a publishable key (CORS is open).
// Test-only controls under /__control/ (and as methods) move an intent to succeeded, failed, processing or requires_action.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { sendJson, sleep } from "./fake-server.js";

export const FAKE_STRIPE_SECRET_KEY = "sk_test_fake_secret_123";
export const FAKE_STRIPE_PUBLISHABLE_KEY = "pk_test_fake_publishable_123";
/** Stripe's test card numbers the fake knows; any other number is refused as `incorrect_number`. */
export const TEST_CARDS = { visa: "4242424242424242", declined: "4000000000000002", insufficientFunds: "4000000000009995" } as const;

const STATUSES = ["requires_payment_method", "requires_confirmation", "requires_action", "processing", "canceled", "succeeded"] as const;
export type PaymentIntentStatus = (typeof STATUSES)[number];

export type PaymentError = { type: "card_error"; code: string; decline_code?: string; message: string };

export interface FakePaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  automatic_payment_methods: { enabled: boolean } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  client_secret: string;
  created: number;
  currency: string;
  description: string | null;
  last_payment_error: PaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: { type: string } | null;
  payment_method: string | null;
  payment_method_types: string[];
  receipt_email: string | null;
  status: PaymentIntentStatus;
}

/** A form body or query string parsed from bracket notation: `a[b][c]=1` → `{ a: { b: { c: "1" } } }` (indexes stay keys). */
export interface FormObject {
  [key: string]: string | FormObject;
}

export interface RecordedStripeRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/payment_intents`. */
  path: string;
  query: FormObject;
  body: FormObject;
  idempotencyKey: string | null;
  /** The key from `Authorization: Bearer ...`, or null when none was sent. */
  apiKey: string | null;
  headers: IncomingHttpHeaders;
}

export interface StripeFakeOptions {
  /** When set, this exact secret key is the only one accepted (otherwise any `sk_test_...`). */
  acceptedSecretKey?: string;
  port?: number;
}

export interface StripeFake {
  /** `http://127.0.0.1:PORT`; give the SDK `{ host, port, protocol: "http" }`. */
  url: string;
  host: string;
  port: number;
  /** Every /v1 request received (also while `down`), oldest first. */
  requests: RecordedStripeRequest[];
  intents: Map<string, FakePaymentIntent>;
  /** Every /v1 request answers 500 api_error until set back to false (a Stripe outage). */
  down: boolean;
  /** Added before each /v1 answer. */
  delayMs: number;
  /** PaymentIntents created through the API (idempotent replays do not count). */
  createdCount(): number;
  /** Status succeeded; `amountReceived` / `currency` simulate an underpaid intent or one in another currency. */
  succeed(id: string, options?: { amountReceived?: number; currency?: string }): FakePaymentIntent;
  /** Status requires_payment_method with a last_payment_error (a generic decline unless given). */
  fail(id: string, error?: PaymentError): FakePaymentIntent;
  setStatus(id: string, status: PaymentIntentStatus): FakePaymentIntent;
  /** Forgets requests, intents and idempotency keys. */
  reset(): void;
  close(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, extra: Record<string, unknown> = {}, status = 400) =>
  new ApiError(status, { type: "invalid_request_error", message, ...extra });
const missingParam = (param: string) => invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param });
const noSuchIntent = (id: string) => invalid(`No such payment_intent: '${id}'`, { code: "resource_missing", param: "intent" }, 404);

const declined = (decline_code: string, message: string): PaymentError => ({
  type: "card_error",
  code: "card_declined",
  decline_code,
  message,
});
const DECLINES: Record<string, PaymentError> = {
  [TEST_CARDS.declined]: declined("generic_decline", "Your card was declined."),
  [TEST_CARDS.insufficientFunds]: declined("insufficient_funds", "Your card has insufficient funds."),
};
const INCORRECT_NUMBER: PaymentError = { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect." };
/** Stripe's test PaymentMethod ids, for confirms that send `payment_method` instead of card details. */
const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: TEST_CARDS.visa,
  pm_card_chargeDeclined: TEST_CARDS.declined,
  pm_card_chargeDeclinedInsufficientFunds: TEST_CARDS.insufficientFunds,
};
/** What create accepts; anything else is refused like Stripe does ("Received unknown parameter"), which catches typos. */
const CREATE_PARAMS = new Set(
  "amount currency metadata automatic_payment_methods description receipt_email payment_method_types customer expand".split(" "),
);

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const requests: RecordedStripeRequest[] = [];
  const intents = new Map<string, FakePaymentIntent>();
  // `${apiKey} ${idempotencyKey}` → the first answer, replayed for the same request and refused for a different one.
  const idempotent = new Map<string, { path: string; params: string; status: number; body: unknown }>();

  const intentOf = (id: string) => {
    const intent = intents.get(id);
    if (!intent) throw noSuchIntent(id);
    return intent;
  };

  function checkKey(apiKey: string | null, publishableAllowed: boolean): void {
    if (!apiKey) throw invalid("You did not provide an API key. Send it as `Authorization: Bearer <key>`.", {}, 401);
    if (apiKey.startsWith("pk_test_")) {
      if (publishableAllowed) return;
      throw invalid("This API call cannot be made with a publishable API key. Please use a secret API key.", {}, 401);
    }
    const accepted = options.acceptedSecretKey ? apiKey === options.acceptedSecretKey : apiKey.startsWith("sk_test_");
    if (!accepted) throw invalid(`Invalid API Key provided: ${maskKey(apiKey)}`, {}, 401);
  }

  function checkClientSecret(intent: FakePaymentIntent, secret: string | FormObject | undefined): void {
    if (secret === undefined || secret === intent.client_secret) return;
    throw invalid("The client_secret provided does not match the client_secret of this PaymentIntent.", { param: "client_secret" });
  }

  function create(body: FormObject): FakePaymentIntent {
    for (const key of Object.keys(body)) if (!CREATE_PARAMS.has(key)) throw invalid(`Received unknown parameter: ${key}`, { param: key });
    if (body.amount === undefined) throw missingParam("amount");
    if (typeof body.amount !== "string" || !/^-?\d+$/.test(body.amount)) {
      throw invalid(`Invalid integer: ${String(body.amount)}`, { code: "parameter_invalid_integer", param: "amount" });
    }
    const amount = Number(body.amount);
    if (amount < 1) throw invalid("This value must be greater than or equal to 1.", { code: "parameter_invalid_integer", param: "amount" });
    if (body.currency === undefined) throw missingParam("currency");
    if (typeof body.currency !== "string" || !/^[a-z]{3}$/i.test(body.currency)) {
      throw invalid(`Invalid currency: ${String(body.currency)}.`, { code: "parameter_invalid_string", param: "currency" });
    }
    const metadata: Record<string, string> = {};
    if (body.metadata !== undefined && body.metadata !== "") {
      if (typeof body.metadata === "string") throw invalid("Invalid object", { param: "metadata" });
      for (const [key, value] of Object.entries(body.metadata)) {
        if (typeof value !== "string") throw invalid(`Invalid metadata[${key}]: must be a string.`, { param: `metadata[${key}]` });
        metadata[key] = value;
      }
    }
    const automatic = body.automatic_payment_methods;
    const id = `pi_${randomId(24)}`;
    const intent: FakePaymentIntent = {
      id,
      object: "payment_intent",
      amount,
      amount_received: 0,
      automatic_payment_methods: typeof automatic === "object" ? { enabled: automatic.enabled === "true" } : null,
      canceled_at: null,
      cancellation_reason: null,
      client_secret: `${id}_secret_${randomId(25)}`,
      created: now(),
      currency: body.currency.toLowerCase(),
      description: typeof body.description === "string" ? body.description : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata,
      next_action: null,
      payment_method: null,
      payment_method_types: ["card"],
      receipt_email: typeof body.receipt_email === "string" ? body.receipt_email : null,
      status: "requires_payment_method",
    };
    intents.set(id, intent);
    return intent;
  }

  /** The test card decides: 4242… succeeds, 0002 / 9995 decline (402 with the intent), anything else is an incorrect number. */
  function confirm(intent: FakePaymentIntent, body: FormObject): { status: number; body: unknown } {
    if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status)) {
      const message = `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`;
      throw invalid(message, { code: "payment_intent_unexpected_state", payment_intent: intent });
    }
    const data = typeof body.payment_method_data === "object" ? body.payment_method_data : undefined;
    const card = data && typeof data.card === "object" ? data.card : undefined;
    let number: string | undefined;
    if (typeof body.payment_method === "string") {
      number = TEST_PAYMENT_METHODS[body.payment_method];
      if (!number) throw invalid(`No such PaymentMethod: '${body.payment_method}'`, { code: "resource_missing", param: "payment_method" });
    } else if (card && typeof card.number === "string") {
      number = card.number.replace(/\s/g, "");
    } else if (data) {
      throw missingParam("payment_method_data[card][number]");
    } else {
      throw invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", { code: "parameter_missing" });
    }
    intent.payment_method = `pm_${randomId(24)}`;
    if (number === TEST_CARDS.visa) {
      Object.assign(intent, { status: "succeeded", amount_received: intent.amount, last_payment_error: null, next_action: null });
      intent.latest_charge = `ch_${randomId(24)}`;
      return { status: 200, body: intent };
    }
    const error = DECLINES[number] ?? INCORRECT_NUMBER;
    Object.assign(intent, { status: "requires_payment_method", last_payment_error: error, next_action: null });
    if (error.decline_code) intent.latest_charge = `ch_${randomId(24)}`;
    const extra = error.decline_code ? { charge: intent.latest_charge } : { param: "number" };
    return { status: 402, body: { error: { ...error, ...extra, payment_intent: intent } } };
  }

  /** Routes one /v1 request; returns the status and JSON body, or throws an ApiError. */
  function route(request: RecordedStripeRequest): { status: number; body: unknown } {
    const { method, path, body, query, apiKey } = request;
    const match = /^\/v1\/payment_intents(?:\/([^/]+))?(?:\/(cancel|confirm))?$/.exec(path);
    const [, id, action] = match ?? [];
    if (match && method === "POST" && !id) {
      checkKey(apiKey, false);
      return { status: 200, body: create(body) };
    }
    if (match && method === "GET" && id && !action) {
      const clientSecret = query.client_secret;
      checkKey(apiKey, clientSecret !== undefined);
      const intent = intentOf(id);
      checkClientSecret(intent, clientSecret);
      return { status: 200, body: intent };
    }
    if (match && method === "POST" && id && action === "confirm") {
      checkKey(apiKey, true);
      const intent = intentOf(id);
      if (apiKey?.startsWith("pk_") && body.client_secret === undefined) throw missingParam("client_secret");
      checkClientSecret(intent, body.client_secret);
      return confirm(intent, body);
    }
    if (match && method === "POST" && id && action === "cancel") {
      checkKey(apiKey, false);
      const intent = intentOf(id);
      if (intent.status === "succeeded" || intent.status === "canceled") {
        const message = `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`;
        throw invalid(message, { code: "payment_intent_unexpected_state", payment_intent: intent });
      }
      const reason = typeof body.cancellation_reason === "string" ? body.cancellation_reason : null;
      Object.assign(intent, { status: "canceled", canceled_at: now(), cancellation_reason: reason, next_action: null });
      return { status: 200, body: intent };
    }
    throw invalid(`Unrecognized request URL (${method}: ${path}).`, {}, 404);
  }

  /** Same key + same request → the stored answer; same key + different request → 400 idempotency_error. Keys are per API key. */
  function withIdempotency(request: RecordedStripeRequest): { status: number; body: unknown; replayed: boolean } {
    const key = request.idempotencyKey;
    if (request.method !== "POST" || !key || !request.path.startsWith("/v1/")) return { ...route(request), replayed: false };
    const slot = `${request.apiKey} ${key}`;
    const params = canonical(request.body);
    const stored = idempotent.get(slot);
    if (stored) {
      if (stored.path !== request.path || stored.params !== params) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
        throw new ApiError(400, { type: "idempotency_error", message });
      }
      return { status: stored.status, body: stored.body, replayed: true };
    }
    const answer = route(request);
    // Like Stripe, only requests that ran (success or card error) are saved; validation errors can be retried with the key.
    if (answer.status === 200 || answer.status === 402) {
      idempotent.set(slot, { path: request.path, params, status: answer.status, body: structuredClone(answer.body) });
    }
    return { ...answer, replayed: false };
  }

  function handleControl(res: ServerResponse, path: string, text: string): void {
    const match = /^\/__control\/payment_intents\/([^/]+)\/(succeed|fail|processing|requires_action)$/.exec(path);
    if (!match) throw invalid(`Unrecognized control URL (${path}).`, {}, 404);
    const [, id = "", action = ""] = match;
    const options = text ? (JSON.parse(text) as { amountReceived?: number; currency?: string }) : {};
    if (action === "succeed") sendJson(res, 200, fake.succeed(id, options), CORS);
    else if (action === "fail") sendJson(res, 200, fake.fail(id), CORS);
    else sendJson(res, 200, fake.setStatus(id, action as PaymentIntentStatus), CORS);
  }

  const server = createServer((req, res) => {
    void readBody(req)
      .then(async (text) => {
        const method = req.method ?? "GET";
        const [path = "/", search = ""] = (req.url ?? "/").split("?");
        if (method === "OPTIONS") return void res.writeHead(204, PREFLIGHT).end();
        if (path.startsWith("/__control/")) return handleControl(res, path, text);
        const idempotencyKey = req.headers["idempotency-key"];
        const request: RecordedStripeRequest = {
          method,
          path,
          query: parseForm(search),
          body: method === "POST" ? parseForm(text) : {},
          idempotencyKey: typeof idempotencyKey === "string" ? idempotencyKey : null,
          apiKey: /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? null,
          headers: req.headers,
        };
        requests.push(request);
        if (fake.delayMs > 0) await sleep(fake.delayMs);
        const headers: Record<string, string> = { ...CORS, "request-id": `req_${randomId(14)}` };
        headers["stripe-version"] = String(req.headers["stripe-version"] ?? Stripe.API_VERSION);
        if (request.idempotencyKey) headers["idempotency-key"] = request.idempotencyKey;
        if (fake.down) {
          sendJson(res, 500, { error: { type: "api_error", message: "An unknown error occurred (the Stripe fake is down)." } }, headers);
          return;
        }
        const answer = withIdempotency(request);
        if (answer.replayed) headers["idempotent-replayed"] = "true";
        sendJson(res, answer.status, answer.body, headers);
      })
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else if (error instanceof ApiError) sendJson(res, error.status, { error: error.body }, CORS);
        // A bug in the fake must show up as a 500 the test can see, not as a silent hang.
        else sendJson(res, 500, { error: { type: "api_error", message: `Stripe fake failed: ${String(error)}` } }, CORS);
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;

  const fake: StripeFake = {
    url: `http://127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    requests,
    intents,
    down: false,
    delayMs: 0,
    createdCount: () => intents.size,
    succeed(id, { amountReceived, currency } = {}) {
      const intent = Object.assign(intentOf(id), { status: "succeeded", last_payment_error: null, next_action: null });
      intent.amount_received = amountReceived ?? intent.amount;
      if (currency) intent.currency = currency.toLowerCase();
      intent.latest_charge ??= `ch_${randomId(24)}`;
      return intent;
    },
    fail(id, error = DECLINES[TEST_CARDS.declined]!) {
      return Object.assign(intentOf(id), { status: "requires_payment_method", last_payment_error: error, next_action: null });
    },
    setStatus(id, status) {
      if (status === "succeeded") return fake.succeed(id);
      const intent = intentOf(id);
      intent.status = status;
      intent.next_action = status === "requires_action" ? { type: "use_stripe_sdk" } : null;
      if (status === "canceled") intent.canceled_at = now();
      return intent;
    },
    reset() {
      requests.length = 0;
      intents.clear();
      idempotent.clear();
    },
    close() {
      // closeAllConnections also drops the SDK's keep-alive sockets; server.close alone would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
  return fake;
}

/** A webhook body and its `Stripe-Signature` header value, signed like Stripe does, for `stripe.webhooks.constructEvent`. */
export function signedWebhook(payload: object, secret: string): { body: string; signature: string } {
  const body = JSON.stringify(payload, null, 2);
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** A Stripe Event carrying a snapshot of the intent (later changes to the intent do not leak into it). */
export function paymentIntentEvent(intent: FakePaymentIntent | Stripe.PaymentIntent, type = "payment_intent.succeeded") {
  return {
    id: `evt_${randomId(24)}`,
    object: "event" as const,
    api_version: Stripe.API_VERSION,
    created: now(),
    data: { object: structuredClone(intent) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** Parses a form body or query string with bracket notation into nested objects; `a[]=x` gets the next numeric key. */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(name);
    if (!keys) continue;
    const path = [keys[1]!, ...[...keys[2]!.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)];
    if (path.some((key) => key === "__proto__" || key === "constructor" || key === "prototype")) continue;
    let node = root;
    for (const [i, key] of path.entries()) {
      const slot = key === "" ? String(Object.keys(node).length) : key;
      if (i === path.length - 1) node[slot] = value;
      else {
        const next = node[slot];
        if (typeof next === "object") node = next;
        else node = node[slot] = {};
      }
    }
  }
  return root;
}

const CORS = { "access-control-allow-origin": "*" };
const PREFLIGHT = {
  ...CORS,
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, stripe-version, idempotency-key",
  "access-control-max-age": "600",
};

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function randomId(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join("");
}

/** `sk_test_abcdef1234` → `sk_test_****1234`, the way Stripe shows a refused key. */
function maskKey(key: string): string {
  const prefix = /^[a-z]+_(?:test_|live_)?/.exec(key)?.[0] ?? "";
  return `${prefix}****${key.slice(-4)}`;
}

/** The parsed body with sorted keys, so the same parameters in another order count as the same request. */
function canonical(value: string | FormObject): string {
  if (typeof value === "string") return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`)
    .join(",")}}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}
