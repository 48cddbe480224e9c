// Contrast and images on the public pages (issue 13, "contrast is AA", "every image has alt text"): axe-core's
// color-contrast (WCAG 2 AA: 4.5:1 for text, 3:1 for large text) and image-alt rules over every public page, at
// 1440 and 390 px, in the light and the dark theme, plus the states a visitor brings about (an open FAQ answer,
// the contact form's errors, the phone menu). axe runs inside the page (evaluated, as the app's CSP allows no
// injected script tag).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "../../src/shared/public-pages.js";
import { TINY_PNG } from "../helpers/multipart.js";
import { audit } from "./support/axe.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";

const h = startHarness();

async function open(path: string, options: { width: number; dark: boolean }): Promise<Page> {
  const page = await h.newPage({ width: options.width, height: 900 });
  if (options.dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
  await page.goto(path, { waitUntil: "networkidle" });
  await settled(page);
  return page;
}

/** Animations that end (fade-ins, the menu sliding in) would be measured half-way: waits until none runs. */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

const VARIANTS = [
  { width: 1440, dark: false },
  { width: 1440, dark: true },
  { width: 390, dark: false },
  { width: 390, dark: true },
];

describe("public pages: AA contrast and text alternatives", () => {
  for (const variant of VARIANTS) {
    for (const publicPage of PUBLIC_PAGES) {
      it(`${publicPage.path} meets them at ${variant.width} px in the ${variant.dark ? "dark" : "light"} theme`, async () => {
        const page = await open(publicPage.path, variant);
        const findings = (await audit(page)).map((finding) => `${finding.rule} ${finding.target}: ${finding.summary}`);
        expect(findings).toEqual([]);
      });
    }
  }

  it("meet them in the states a visitor brings about: an open answer, the form's errors, the phone menu", { timeout: 90_000 }, async () => {
    for (const dark of [false, true]) {
      const faq = await open("/faq", { width: 1440, dark });
      await faq.getByRole("button", { name: "What is Lumora?" }).click();
      expect(await audit(faq)).toEqual([]);
      await faq.context().close();

      const contact = await open("/contact", { width: 1440, dark });
      await contact.getByRole("button", { name: "Send Message" }).click();
      await contact.locator("#contact-name-error").waitFor();
      expect(await audit(contact)).toEqual([]);
      await contact.context().close();

      const phone = await open("/pricing", { width: 390, dark });
      await phone.getByRole("button", { name: "Open menu" }).click();
      await phone.getByRole("dialog").waitFor();
      await settled(phone);
      expect(await audit(phone)).toEqual([]);
      await phone.context().close();
    }
  });
});

describe("toasts: AA contrast", () => {
  it("a success and an error toast read at 4.5:1 or more, in the light and the dark theme", { timeout: 90_000 }, async () => {
    const account = await registerViaApi(h, uniqueAccount("toasts"));
    for (const dark of [false, true]) {
      const page = await h.newPage({ width: 1440, height: 900 });
      if (dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await signIn(page, account);
      await page.goto("/settings");
      const photo = page.locator("#avatar-file");
      // Refused in the page (not an image): an error toast; then a real photo: a success toast. Each is audited while it
      // is the one shown (one toast at a time).
      await photo.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
      await page.locator('[data-sonner-toast][data-type="error"]').waitFor();
      await settled(page);
      expect(await audit(page, ["color-contrast"]), `error toast, ${dark ? "dark" : "light"}`).toEqual([]);
      await photo.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: Buffer.from(TINY_PNG) });
      await page.locator('[data-sonner-toast][data-type="success"][data-visible="true"]').waitFor();
      await settled(page);
      expect(await audit(page, ["color-contrast"]), `success toast, ${dark ? "dark" : "light"}`).toEqual([]);
      await page.context().close();
    }
  });
});
