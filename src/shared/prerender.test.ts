import { describe, expect, it } from "vitest";
import { formatPrice } from "./format-price.js";
import { allVariants, bootDataFor, bootDataScript, fillLiveValues, SENTINELS, variantKey, variantOf } from "./prerender.js";

const live = bootDataFor(allVariants()[0]!, {
  platformName: `A <b>&</b> "Co" 'x'`,
  supportEmail: "help+1@example.com",
  earlyAccessPrice: "1234.5",
  currency: "EUR",
  publishableKey: "pk_test_1",
});

describe("prerendered pages", () => {
  it("formats a price made of tokens later, with the live amount and currency", () => {
    const token = formatPrice(SENTINELS.earlyAccessPrice, SENTINELS.currency);
    expect(token).toBe("%%PRICE[%%EA_PRICE%%|%%CURRENCY%%]%%");
    expect(fillLiveValues(`<p>${token}</p>`, live)).toBe("<p>€1,234.50</p>");
    expect(fillLiveValues(formatPrice(19, SENTINELS.currency), live)).toBe("€19");
    expect(formatPrice("297", "usd")).toBe("$297");
  });

  it("fills every token HTML-escaped, also inside attributes and percent-encoded links", () => {
    const html = `<a title="${SENTINELS.platformName}" href="mailto:%25%25SUPPORT_EMAIL%25%25">${SENTINELS.platformName} ${SENTINELS.supportEmail}</a>`;
    expect(fillLiveValues(html, live)).toBe(
      '<a title="A &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot; &#x27;x&#x27;" href="mailto:help%2B1%40example.com">A &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot; &#x27;x&#x27; help+1@example.com</a>',
    );
    expect(fillLiveValues("%%UNKNOWN%%", live)).toBe("%%UNKNOWN%%");
  });

  it("names 32 variants, each found again from its boot data", () => {
    const variants = allVariants();
    expect(new Set(variants.map(variantKey)).size).toBe(32);
    for (const variant of variants) expect(variantOf(bootDataFor(variant))).toEqual(variant);
    expect(bootDataFor({ ...variants[0]!, supportEmail: false, paymentsAvailable: false }).paymentSettings.publishableKey).toBeNull();
  });

  it("keeps the boot data from closing its script element", () => {
    const script = bootDataScript(live);
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(script.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, ""))).toEqual(live);
  });
});
