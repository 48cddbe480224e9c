import type { Page, Route } from "playwright-core";

/**
 * A stand-in for Stripe.js (https://js.stripe.com/endive/stripe.js, what @stripe/stripe-js v10 loads) for
 * browser walks with no internet: `window.Stripe(pk)` gives the parts @stripe/react-stripe-js and the
 * checkout use. `elements({ clientSecret, appearance })`; `create("payment")` gives an element whose
 * `mount()` renders labelled Card number, Expiration date and Security code inputs into the page (no
 * iframe) and fires "ready" and "change"; `confirmPayment()` POSTs the typed card number form-encoded to
 * https://api.stripe.com/v1/payment_intents/<id>/confirm with the publishable key, like Stripe.js, and
 * `retrievePaymentIntent()` GETs the intent. `routeStripe()` serves this script and forwards
 * api.stripe.com to the local Stripe fake (tests/fakes/stripe-fake.ts), whose test cards decide.
 * Plain JavaScript in a string: it runs in the page, untouched by the test's TypeScript transform.
 */
export const STRIPE_JS_STAND_IN = String.raw`(() => {
  "use strict";
  if (window.Stripe && window.Stripe.__standIn) return;
  const API = "https://api.stripe.com/v1";
  let serial = 0;

  const intentIdOf = (clientSecret) => String(clientSecret || "").split("_secret_")[0];
  const form = (fields) =>
    Object.entries(fields)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => encodeURIComponent(key) + "=" + encodeURIComponent(String(value)))
      .join("&");

  function palette(appearance) {
    const dark = appearance && appearance.theme === "night";
    const vars = (appearance && appearance.variables) || {};
    return dark
      ? { text: "#e6e6f0", label: "#c9c9d6", border: "#41415a", background: "#1e1e2e", focus: vars.colorPrimary || "#8b5cf6", muted: "#8d8da3" }
      : { text: "#1a1a2e", label: "#30313d", border: "#e0e0e6", background: "#ffffff", focus: vars.colorPrimary || "#635bff", muted: "#6d6e78" };
  }

  function createPaymentElement(group, type, options) {
    const handlers = {};
    const fields = {};
    let root = null;
    let isReady = false;
    let destroyed = false;
    const id = "stand-in-" + ++serial;

    const emit = (event, payload) => (handlers[event] || []).slice().forEach((handler) => handler(payload));
    const state = () => {
      const number = fields.number ? fields.number.value.replace(/\s/g, "") : "";
      const expiry = fields.expiry ? fields.expiry.value.trim() : "";
      const cvc = fields.cvc ? fields.cvc.value.trim() : "";
      return { number, expiry, cvc, empty: !number && !expiry && !cvc, complete: number.length >= 12 && expiry.length >= 4 && cvc.length >= 3 };
    };

    function style() {
      if (!root) return;
      const colors = palette(group.options.appearance);
      const radius = (group.options.appearance && group.options.appearance.variables && group.options.appearance.variables.borderRadius) || "6px";
      Object.assign(root.style, { display: "grid", gap: "12px", fontFamily: "system-ui, sans-serif", color: colors.text });
      root.querySelectorAll("label").forEach((label) =>
        Object.assign(label.style, { display: "grid", minWidth: "0", gap: "6px", fontSize: "14px", fontWeight: "500", color: colors.label }),
      );
      root.querySelectorAll("input").forEach((input) =>
        Object.assign(input.style, {
          boxSizing: "border-box",
          width: "100%",
          minWidth: "0",
          height: "44px",
          padding: "0 12px",
          fontSize: "16px",
          border: "1px solid " + colors.border,
          borderRadius: radius,
          background: colors.background,
          color: colors.text,
          outlineColor: colors.focus,
          boxShadow: "0 1px 1px rgba(0,0,0,0.03), 0 3px 6px rgba(0,0,0,0.02)",
        }),
      );
      root.querySelectorAll("[data-row]").forEach((row) => Object.assign(row.style, { display: "grid", gap: "12px", gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)" }));
      root.querySelectorAll("[data-note]").forEach((note) => Object.assign(note.style, { fontSize: "12px", color: colors.muted, margin: "0" }));
    }

    function field(key, labelText, attributes) {
      const label = document.createElement("label");
      label.htmlFor = id + "-" + key;
      label.textContent = labelText;
      const input = document.createElement("input");
      input.id = id + "-" + key;
      input.name = key;
      input.type = "text";
      for (const [name, value] of Object.entries(attributes)) input.setAttribute(name, value);
      input.addEventListener("input", () => {
        const s = state();
        emit("change", { elementType: type, collapsed: false, empty: s.empty, complete: s.complete, value: { type: "card" } });
      });
      input.addEventListener("focus", () => emit("focus", { elementType: type }));
      input.addEventListener("blur", () => emit("blur", { elementType: type }));
      label.appendChild(input);
      fields[key] = input;
      return label;
    }

    const element = {
      __type: type,
      mount(target) {
        if (destroyed) throw new Error("This Element has been destroyed.");
        const node = typeof target === "string" ? document.querySelector(target) : target;
        if (!node) throw new Error("The selector you specified (" + target + ") applies to no DOM elements.");
        root = document.createElement("div");
        root.setAttribute("data-stripe-stand-in", type);
        root.appendChild(field("number", "Card number", { autocomplete: "cc-number", inputmode: "numeric", placeholder: "1234 1234 1234 1234" }));
        const row = document.createElement("div");
        row.setAttribute("data-row", "");
        row.appendChild(field("expiry", "Expiration date", { autocomplete: "cc-exp", inputmode: "numeric", placeholder: "MM / YY" }));
        row.appendChild(field("cvc", "Security code", { autocomplete: "cc-csc", inputmode: "numeric", placeholder: "CVC" }));
        root.appendChild(row);
        const note = document.createElement("p");
        note.setAttribute("data-note", "");
        note.textContent = "Test mode: Stripe.js stand-in.";
        root.appendChild(note);
        node.appendChild(root);
        style();
        // Like the real iframe: ready (and a first change) arrive a moment after mount, once listeners are on.
        setTimeout(() => {
          if (destroyed || !root) return;
          isReady = true;
          emit("ready", { elementType: type });
          emit("change", { elementType: type, collapsed: false, empty: true, complete: false, value: { type: "card" } });
        }, 30);
        return element;
      },
      on(event, handler) {
        (handlers[event] = handlers[event] || []).push(handler);
        if (event === "ready" && isReady) setTimeout(() => handler({ elementType: type }), 0);
        return element;
      },
      off(event, handler) {
        if (!handler) delete handlers[event];
        else handlers[event] = (handlers[event] || []).filter((h) => h !== handler);
        return element;
      },
      once(event, handler) {
        const wrapped = (payload) => {
          element.off(event, wrapped);
          handler(payload);
        };
        return element.on(event, wrapped);
      },
      update(next) {
        Object.assign(options, next || {});
        style();
        return element;
      },
      unmount() {
        if (root && root.parentNode) root.parentNode.removeChild(root);
        root = null;
        isReady = false;
        return element;
      },
      destroy() {
        element.unmount();
        destroyed = true;
        delete group.created[type];
        return element;
      },
      focus() {
        if (fields.number) fields.number.focus();
        return element;
      },
      blur() {
        if (document.activeElement && root && root.contains(document.activeElement)) document.activeElement.blur();
        return element;
      },
      clear() {
        Object.values(fields).forEach((input) => (input.value = ""));
        return element;
      },
      collapse() {
        return element;
      },
      __state: state,
      __restyle: style,
    };
    return element;
  }

  function createElements(options) {
    const group = {
      options: Object.assign({}, options || {}),
      created: {},
      create(type, elementOptions) {
        if (group.created[type]) throw new Error("Can only create one Element of type " + type + ".");
        const element = createPaymentElement(group, type, Object.assign({}, elementOptions || {}));
        group.created[type] = element;
        return element;
      },
      getElement(type) {
        return group.created[type] || null;
      },
      update(next) {
        Object.assign(group.options, next || {});
        Object.values(group.created).forEach((element) => element.__restyle());
      },
      fetchUpdates() {
        return Promise.resolve({});
      },
      submit() {
        return Promise.resolve({});
      },
    };
    return group;
  }

  async function stripeFetch(method, path, publishableKey, body) {
    try {
      const response = await fetch(API + path, {
        method,
        headers: Object.assign(
          { Authorization: "Bearer " + publishableKey },
          body === undefined ? {} : { "Content-Type": "application/x-www-form-urlencoded" },
        ),
        body,
      });
      const json = await response.json().catch(() => ({}));
      return { status: response.status, json };
    } catch (error) {
      return { status: 0, json: { error: { type: "api_connection_error", message: "We could not reach Stripe. Check your connection." } } };
    }
  }

  const unsupported = (name) => () =>
    Promise.resolve({ error: { type: "invalid_request_error", message: name + " is not supported by the Stripe.js stand-in." } });

  function Stripe(publishableKey, stripeOptions) {
    if (typeof publishableKey !== "string" || !publishableKey) throw new Error("Please call Stripe() with your publishable key.");
    const stripe = {
      __publishableKey: publishableKey,
      __options: stripeOptions || {},
      _registerWrapper() {},
      registerAppInfo() {},
      elements: (options) => createElements(options),
      createToken: unsupported("createToken"),
      createPaymentMethod: unsupported("createPaymentMethod"),
      confirmCardPayment: unsupported("confirmCardPayment"),
      async confirmPayment(params) {
        const elements = params && params.elements;
        const clientSecret = (params && params.clientSecret) || (elements && elements.options.clientSecret);
        const element = elements && elements.getElement("payment");
        if (!element) return { error: { type: "integration_error", message: "confirmPayment needs the Payment Element mounted." } };
        const card = element.__state();
        if (!card.number) return { error: { type: "validation_error", code: "incomplete_number", message: "Your card number is incomplete." } };
        const { status, json } = await stripeFetch(
          "POST",
          "/payment_intents/" + encodeURIComponent(intentIdOf(clientSecret)) + "/confirm",
          publishableKey,
          form({ client_secret: clientSecret, "payment_method_data[type]": "card", "payment_method_data[card][number]": card.number }),
        );
        if (status === 200) {
          const returnUrl = params.confirmParams && params.confirmParams.return_url;
          if (params.redirect !== "if_required" && returnUrl) {
            const url = new URL(returnUrl);
            url.searchParams.set("payment_intent", json.id);
            url.searchParams.set("payment_intent_client_secret", json.client_secret);
            url.searchParams.set("redirect_status", json.status === "succeeded" ? "succeeded" : json.status);
            window.location.assign(url.toString());
            return new Promise(() => {});
          }
          return { paymentIntent: json };
        }
        const error = (json && json.error) || { type: "api_error", message: "An unexpected error occurred." };
        return { error: { type: error.type, code: error.code, decline_code: error.decline_code, message: error.message, payment_intent: error.payment_intent } };
      },
      async retrievePaymentIntent(clientSecret) {
        const { status, json } = await stripeFetch(
          "GET",
          "/payment_intents/" + encodeURIComponent(intentIdOf(clientSecret)) + "?" + form({ client_secret: clientSecret }),
          publishableKey,
        );
        if (status === 200) return { paymentIntent: json };
        const error = (json && json.error) || { type: "api_error", message: "An unexpected error occurred." };
        return { error: { type: error.type, code: error.code, message: error.message } };
      },
    };
    return stripe;
  }
  Stripe.version = "endive";
  Stripe.__standIn = true;
  window.Stripe = Stripe;
})();
`;

const PREFLIGHT_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, stripe-version, idempotency-key",
};

/**
 * Serves the Stripe.js stand-in for https://js.stripe.com/** and forwards https://api.stripe.com/** to the
 * local Stripe fake at `stripeApiUrl` (same method, headers and body; its answer goes back as it is).
 */
export async function routeStripe(page: Page, stripeApiUrl: string): Promise<void> {
  await page.route("https://js.stripe.com/**", (route: Route) =>
    route.fulfill({ status: 200, contentType: "application/javascript; charset=utf-8", body: STRIPE_JS_STAND_IN }),
  );
  await page.route("https://api.stripe.com/**", async (route: Route) => {
    const request = route.request();
    if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: PREFLIGHT_HEADERS });
    const url = new URL(request.url());
    const response = await route.fetch({ url: `${stripeApiUrl}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
}
