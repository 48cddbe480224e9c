// The public site (issue 13): landing, features, pricing, FAQ, contact, terms and privacy in one header and
// footer, at phone and desktop widths with no sideways scrolling; the header follows the session; the FAQ
// opens one question at a time, also from the keyboard; pricing shows the live Early Access price; the
// contact form checks, sends (stored, emailed through the outbox) and an admin reads the message on the
// Contact Messages page; the support email set in Platform Settings shows on the contact page.
import { desc, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { contactMessages, emailOutbox } from "../../src/server/db/schema/index.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  admin = await registerViaApi(h, uniqueAccount("boss"));
  if (admin.role !== "admin") throw new Error("the first account should be admin");
  member = await registerViaApi(h, uniqueAccount("member"));
});

const PAGES = [
  {
    path: "/",
    slug: "landing",
    heading: "Create courses with AI. Chat with every leading model.",
    sections: [
      "From idea to course in three steps",
      "Everything you need in one place",
      "Your courses, online and ready",
      "Words that sell your course",
      "Built to keep your work safe",
      "Loved by creators and teachers",
      "Ready to build your first course?",
    ],
  },
  {
    path: "/features",
    slug: "features",
    heading: "Everything you need to create with AI",
    sections: ["The creation workflow, in six steps", "Built for creators who use AI every day", "Start creating today"],
  },
  {
    path: "/pricing",
    slug: "pricing",
    heading: "Simple pricing, no surprises",
    sections: ["Free", "Plans after early access", "Compare the plans", "Pricing questions"],
  },
  {
    path: "/faq",
    slug: "faq",
    heading: "Frequently asked questions",
    sections: ["General Questions", "Pricing & Plans", "Features & Functionality", "Technical Support", "Still have questions?"],
  },
  { path: "/contact", slug: "contact", heading: "Contact us", sections: ["Ways to reach us", "Send us a message"] },
  {
    path: "/terms-of-service",
    slug: "terms",
    heading: "Terms of Service",
    sections: ["1. Acceptance of these terms", "4. AI-generated content", "5. Payments and refunds", "8. Changes and governing law"],
  },
  {
    path: "/privacy-policy",
    slug: "privacy",
    heading: "Privacy Policy",
    sections: ["1. Data we collect", "2. How AI data is handled", "4. Children", "5. Deleting your data"],
  },
] as const;

const FOOTER = [
  ["Features", "/features"],
  ["Pricing", "/pricing"],
  ["Contact", "/contact"],
  ["FAQ", "/faq"],
  ["Terms of Service", "/terms-of-service"],
  ["Privacy Policy", "/privacy-policy"],
] as const;

/** How far the page scrolls sideways (0 or less: not at all); on failure the message names the widest elements. */
async function overflow(page: Page): Promise<number> {
  const { excess, culprits } = await page.evaluate(() => {
    const width = window.innerWidth;
    const wide = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(-3)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)}`);
    return { excess: document.documentElement.scrollWidth - width, culprits: wide };
  });
  if (excess > 0) console.warn(`sideways scroll of ${excess}px from: ${culprits.join(" | ")}`);
  return excess;
}

async function openPage(page: Page, target: (typeof PAGES)[number]) {
  await page.goto(target.path);
  await page.getByRole("heading", { level: 1, name: target.heading }).waitFor();
  for (const section of target.sections) await page.getByRole("heading", { name: section, exact: true }).waitFor();
}

const bannerLink = (page: Page, name: string) => page.getByRole("banner").getByRole("link", { name, exact: true });

describe("public pages", () => {
  for (const width of [375, 1440]) {
    it(`renders every page with its sections, header and footer at ${width} px, never wider than the screen`, async () => {
      const page = await h.newPage({ width, height: width < 500 ? 812 : 900 });
      for (const target of PAGES) {
        await openPage(page, target);
        expect(await overflow(page), `${target.path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
        const footer = page.getByRole("contentinfo");
        for (const [name, href] of FOOTER) expect(await footer.getByRole("link", { name, exact: true }).getAttribute("href")).toBe(href);
        expect(await footer.innerText()).toMatch(/© \d{4} Lumora/);
        if (width === 1440) await page.screenshot({ path: screenshotPath(`public-${target.slug}-1440.png`), fullPage: true });
      }
    });
  }

  it("keeps Back to Sign In and Return to Sign In on the legal pages, with the product name from Platform Settings", async () => {
    const page = await h.newPage();
    for (const path of ["/terms-of-service", "/privacy-policy"]) {
      await page.goto(path);
      expect(await page.getByRole("link", { name: "Back to Sign In" }).getAttribute("href")).toBe("/auth");
      expect(await page.getByRole("link", { name: "Return to Sign In" }).getAttribute("href")).toBe("/auth");
    }
    expect(await page.locator("article").innerText()).toContain("Lumora is not for children under 13");
    await page.goto("/terms-of-service");
    const terms = await page.locator("article").innerText();
    expect(terms).toContain("Effective date: 1/1/25");
    expect(terms).toContain("Colorado");
    expect(terms).toContain("no refunds");
    await page.getByRole("link", { name: "Back to Sign In" }).click();
    await page.waitForURL("**/auth");
  });

  it("shows Login and Get Started to a visitor, Dashboard and Chat once signed in, and a menu on phones", async () => {
    const visitor = await h.newPage();
    await visitor.goto("/features");
    expect(await bannerLink(visitor, "Features").getAttribute("href")).toBe("/features");
    expect(await bannerLink(visitor, "Features").getAttribute("aria-current")).toBe("page");
    expect(await bannerLink(visitor, "Pricing").getAttribute("href")).toBe("/pricing");
    expect(await bannerLink(visitor, "FAQ").getAttribute("href")).toBe("/faq");
    expect(await bannerLink(visitor, "Login").getAttribute("href")).toBe("/login");
    expect(await bannerLink(visitor, "Get Started").getAttribute("href")).toBe("/auth?tab=register");
    expect(await bannerLink(visitor, "Dashboard").count()).toBe(0);
    expect(await bannerLink(visitor, "Chat").count()).toBe(0);
    // The landing's calls to action.
    await visitor.goto("/");
    expect(await visitor.getByRole("link", { name: "Get Started Free" }).first().getAttribute("href")).toBe("/auth?tab=register");
    expect(await visitor.getByRole("link", { name: "Explore Features" }).getAttribute("href")).toBe("/features");

    const signedIn = await h.newPage();
    await signIn(signedIn, member);
    await signedIn.goto("/pricing");
    await bannerLink(signedIn, "Dashboard").waitFor();
    expect(await bannerLink(signedIn, "Dashboard").getAttribute("href")).toBe("/dashboard");
    expect(await bannerLink(signedIn, "Chat").getAttribute("href")).toBe("/chat");
    expect(await bannerLink(signedIn, "Login").count()).toBe(0);
    expect(await bannerLink(signedIn, "Get Started").count()).toBe(0);
    // Pricing speaks to a signed-in free user: the dashboard, and Early Access through the checkout (not set up here).
    expect(await signedIn.getByRole("link", { name: "Go to Dashboard" }).getAttribute("href")).toBe("/dashboard");
    await signedIn.getByText("Not available yet: card payments are not set up.").waitFor();
    // The contact page offers the live chat to a signed-in user.
    await signedIn.goto("/contact");
    expect(await signedIn.getByRole("link", { name: "Open the chat" }).getAttribute("href")).toBe("/chat");

    const phone = await h.newPage({ width: 375, height: 812 });
    await phone.goto("/faq");
    await phone.getByRole("heading", { level: 1, name: "Frequently asked questions" }).waitFor();
    expect(await bannerLink(phone, "Login").count()).toBe(0); // in the menu on phones
    await phone.getByRole("button", { name: "Open menu" }).click();
    const menu = phone.getByRole("dialog");
    for (const name of ["Features", "Pricing", "FAQ", "Login", "Get Started"])
      await menu.getByRole("link", { name, exact: true }).waitFor();
    await menu.evaluate((panel) => Promise.all(panel.getAnimations().map((animation) => animation.finished)));
    await phone.screenshot({ path: screenshotPath("public-menu-375.png") });
    await menu.getByRole("link", { name: "Pricing", exact: true }).click();
    await menu.waitFor({ state: "detached" });
    await phone.waitForURL("**/pricing");
    await phone.getByRole("heading", { level: 1, name: "Simple pricing, no surprises" }).waitFor();
  });

  it("opens one FAQ question at a time, closes it again, and works from the keyboard", async () => {
    const page = await h.newPage();
    await page.goto("/faq");
    const first = page.getByRole("button", { name: "What is Lumora?" });
    await first.waitFor();
    const second = page.getByRole("button", { name: "Who is it for?" });
    const refund = page.getByRole("button", { name: "Can I get a refund for Early Access?" });
    expect(await page.getByRole("main").locator("button[aria-expanded]").count()).toBe(16);
    expect(await first.getAttribute("aria-expanded")).toBe("false");

    await first.click();
    expect(await first.getAttribute("aria-expanded")).toBe("true");
    await page.getByText("is a web platform where you chat with several AI models").waitFor();
    await second.click();
    expect(await second.getAttribute("aria-expanded")).toBe("true");
    expect(await first.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByText("is a web platform where you chat with several AI models").isVisible()).toBe(false);
    await second.click();
    expect(await second.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator('[aria-expanded="true"]').count()).toBe(0);

    await refund.click();
    await page.getByText("Early Access is a one-time payment and it is final: there are no refunds.").waitFor();
    await refund.click();

    // Keyboard: Tab reaches the first question, Enter and Space toggle it, the arrow keys move between questions.
    await page.getByRole("heading", { name: "General Questions" }).click();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("What is Lumora?");
    await page.keyboard.press("Enter");
    expect(await first.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Space");
    expect(await first.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Who is it for?");
    await page.keyboard.press(" ");
    expect(await second.getAttribute("aria-expanded")).toBe("true");
    await page.screenshot({ path: screenshotPath("public-faq-open-1440.png") });

    expect(await page.getByRole("link", { name: "Contact us" }).getAttribute("href")).toBe("/contact");
  });

  it("shows the live Early Access price after an admin changes it", async () => {
    const visitor = await h.newPage();
    await visitor.goto("/pricing");
    const early = visitor.getByRole("article").filter({ has: visitor.getByRole("heading", { name: /^Early Access/ }) });
    await expect.poll(() => early.innerText()).toContain("$297");
    expect(await early.innerText()).toContain("USD · one-time payment");
    const free = visitor.getByRole("article").filter({ has: visitor.getByRole("heading", { name: "Free", exact: true }) });
    expect(await free.innerText()).toContain("$0");
    // The plans after early access, their buttons, the table and the six questions.
    const monthly = visitor.locator("section", { has: visitor.getByRole("heading", { name: "Plans after early access" }) });
    for (const part of ["Starter", "$19", "Professional", "POPULAR", "$79", "Enterprise", "$199", "per month"]) {
      expect(await monthly.innerText()).toContain(part);
    }
    expect(await monthly.getByRole("link", { name: "Start Free Trial" }).count()).toBe(2);
    expect(await monthly.getByRole("link", { name: "Start Free Trial" }).first().getAttribute("href")).toBe("/auth?tab=register");
    expect(await monthly.getByRole("link", { name: "Contact Sales" }).getAttribute("href")).toBe("/contact");
    expect(await visitor.getByRole("table").getByRole("row").count()).toBeGreaterThan(8);
    const faq = visitor.locator("dl").last();
    expect(await faq.locator("dt").count()).toBe(6);
    const answers = await faq.innerText();
    for (const fact of ["14-day free trial", "no credit card", "14-day money-back guarantee", "30 days", "immediately", "over 50 voices"]) {
      expect(answers).toContain(fact);
    }

    const adminPage = await h.newPage();
    await signIn(adminPage, admin);
    const save = (method: "POST" | "PATCH", body: object) =>
      adminPage.evaluate(
        async ({ method, body }) =>
          (
            await fetch("/api/admin/payment-settings", {
              method,
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify(body),
            })
          ).status,
        { method, body },
      );
    expect(await save("POST", { earlyAccessPrice: "149.50", currency: "EUR" })).toBe(201);
    await visitor.reload();
    await expect.poll(() => early.innerText()).toContain("€149.50");
    expect(await early.innerText()).toContain("EUR · one-time payment");
    expect(await early.innerText()).not.toContain("$297");

    expect(await save("PATCH", { earlyAccessPrice: "89", currency: "USD" })).toBe(200);
    await visitor.reload();
    await expect.poll(() => early.innerText()).toContain("$89");
    await visitor.screenshot({ path: screenshotPath("public-pricing-live-price-1440.png") });
    expect(await save("PATCH", { earlyAccessPrice: "297", currency: "USD" })).toBe(200);
  });
});

describe("contact form and Contact Messages", () => {
  it("checks the fields, sends the message, stores and emails it; an admin reads it, marks it and deletes it", async () => {
    const page = await h.newPage();
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Contact form" });
    await form.waitFor();
    expect(await page.getByText("Monday to Friday, 9:00 AM to 6:00 PM EST").count()).toBe(1);
    expect(await page.getByText("Denver, Colorado").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Sign in to chat with us" }).getAttribute("href")).toBe("/login?next=%2Fchat");
    // No support email is set: no email line.
    expect(await page.getByRole("heading", { name: "Email", exact: true }).count()).toBe(0);

    // The shared schema's messages under the fields.
    await form.getByRole("button", { name: "Send Message" }).click();
    expect(await page.locator("#contact-name-error").innerText()).toBe("Full name is required");
    expect(await page.locator("#contact-email-error").innerText()).toBe("Please enter a valid email address");
    expect(await page.locator("#contact-message-error").innerText()).toBe("Message is required");
    expect(await page.getByLabel("Full Name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Email Address").getAttribute("type")).toBe("email");
    expect(await page.getByLabel("Message", { exact: true }).getAttribute("rows")).toBe("6");
    expect(await page.getByRole("radio", { name: "No" }).isChecked()).toBe(true);
    const subject = page.getByRole("combobox", { name: "Subject" });
    expect(await subject.inputValue()).toBe("general");
    expect(await subject.locator("option:checked").innerText()).toBe("General Inquiry");
    // The honeypot is out of sight, out of the tab order and hidden from screen readers.
    const honeypot = page.locator("#contact-website");
    expect(await honeypot.getAttribute("tabindex")).toBe("-1");
    expect(await honeypot.isVisible()).toBe(true); // rendered (bots see it) ...
    expect((await honeypot.boundingBox())?.x ?? 0).toBeLessThan(-1000); // ... but off screen
    expect(await page.getByRole("textbox", { name: "Website" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("public-contact-errors-1440.png"), fullPage: true });

    const text = "Hello team,\nDo you offer <b>discounts</b> for schools?\n\nThanks";
    await page.getByLabel("Full Name").fill("Grace Hopper");
    await page.getByLabel("Email Address").fill("grace@example.com");
    await subject.selectOption({ label: "Partnership" });
    await page.getByRole("radio", { name: "Yes" }).click();
    await page.getByLabel("Message", { exact: true }).fill(text);

    // A refusal (too many messages) says so, and keeps what was typed.
    await page.route("**/api/contact", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({ message: "You have sent several messages already. Please try again in 42 minutes." }),
      }),
    );
    await form.getByRole("button", { name: "Send Message" }).click();
    await page.getByRole("alert").filter({ hasText: "Please try again in 42 minutes." }).waitFor();
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe(text);
    await page.unroute("**/api/contact");

    // While it is sent, the button says so; then the confirmation replaces the form.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/contact", async (route) => {
      await held;
      await route.continue();
    });
    await form.getByRole("button", { name: "Send Message" }).click();
    const sending = page.getByRole("button", { name: "Sending..." });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    release();
    await page.getByText("Thanks for reaching out! We received your message and will reply to grace@example.com.").waitFor();
    await page.unroute("**/api/contact");
    expect(await page.getByRole("form", { name: "Contact form" }).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Message sent");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("public-contact-sent-1440.png"), fullPage: true });

    const [stored] = await h.database.db.select().from(contactMessages).orderBy(desc(contactMessages.id)).limit(1);
    expect(stored).toMatchObject({ name: "Grace Hopper", email: "grace@example.com", subject: "partnership", isUser: true, message: text });
    expect(stored?.readAt).toBeNull();
    const mails = await h.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, admin.email));
    const mail = mails.find((m) => m.textBody.includes("grace@example.com"));
    expect(mail?.subject).toBe("[Lumora] Partnership: Grace Hopper");
    expect(mail?.textBody).toContain("Do you offer <b>discounts</b> for schools?");

    // Send another: a fresh form that keeps who is writing.
    await page.getByRole("button", { name: "Send another message" }).click();
    expect(await page.getByLabel("Full Name").inputValue()).toBe("Grace Hopper");
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe("");

    // The admin's page: unread (bold, a dot, "(unread)" for screen readers) until opened.
    const adminPage = await h.newPage();
    await signIn(adminPage, admin);
    await adminPage.goto("/admin");
    await adminPage.waitForURL("**/admin/users");
    await adminPage.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Contact Messages" }).click();
    await adminPage.getByRole("heading", { level: 1, name: "Contact Messages" }).waitFor();
    const item = adminPage.getByRole("article", { name: /Grace Hopper/ });
    await item.waitFor();
    expect(await item.getByRole("heading").innerText()).toContain("(unread)");
    await adminPage.getByRole("button", { name: "Unread (1)" }).waitFor();
    const details = await item.innerText();
    for (const part of ["grace@example.com", "Partnership", "User"]) expect(details).toContain(part);
    expect(details).not.toContain("Not a user");
    expect(await item.getByRole("link", { name: "grace@example.com" }).getAttribute("href")).toMatch(
      /^mailto:grace@example\.com\?subject=/,
    );
    // Plain text: the tags show as typed, nothing is rendered as HTML.
    expect(await item.locator("b").count()).toBe(0);
    await adminPage.screenshot({ path: screenshotPath("admin-contact-messages-unread-1440.png"), fullPage: true });

    await item.getByRole("button", { name: "Open message" }).click();
    expect(await item.getByRole("button", { name: "Collapse" }).getAttribute("aria-expanded")).toBe("true");
    await item.getByRole("button", { name: "Mark as unread" }).waitFor();
    expect(await item.getByRole("heading").innerText()).not.toContain("(unread)");
    expect(await item.locator("p", { hasText: "Hello team," }).innerText()).toBe(text);
    await adminPage.getByRole("button", { name: "Unread (0)" }).waitFor();
    await expect
      .poll(async () => (await h.database.db.select().from(contactMessages).where(eq(contactMessages.id, stored!.id)))[0]?.readAt)
      .not.toBeNull();
    await adminPage.screenshot({ path: screenshotPath("admin-contact-messages-read-1440.png"), fullPage: true });

    await item.getByRole("button", { name: "Mark as unread" }).click();
    await item.getByRole("button", { name: "Mark as read" }).waitFor();
    await adminPage.getByRole("button", { name: "Unread (1)" }).click();
    await item.waitFor();

    // Dark theme and phone width, then delete with a confirmation.
    const dark = await h.newPage({ width: 390, height: 844 });
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await signIn(dark, admin);
    await dark.goto("/admin/contact-messages");
    await dark.getByRole("article", { name: /Grace Hopper/ }).waitFor();
    expect(await overflow(dark)).toBeLessThanOrEqual(0);
    await dark.screenshot({ path: screenshotPath("admin-contact-messages-dark-390.png"), fullPage: true });

    await item.getByRole("button", { name: "Delete" }).click();
    const dialog = adminPage.getByRole("dialog");
    expect(await dialog.innerText()).toContain("The message from Grace Hopper will be permanently deleted.");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await adminPage.getByText("No unread messages.").waitFor();
    await adminPage.getByRole("button", { name: "Show all messages" }).click();
    await adminPage.getByText("No contact messages yet.").waitFor();
    expect(await h.database.db.select().from(contactMessages).where(eq(contactMessages.id, stored!.id))).toEqual([]);
  });

  it("shows the support email from Platform Settings on the contact page and sends messages to it", async () => {
    const adminPage = await h.newPage();
    await signIn(adminPage, admin);
    await adminPage.goto("/admin/settings");
    const field = adminPage.getByLabel(/Support email/);
    await field.waitFor();
    await adminPage.getByText("Shown on the contact page; contact messages are sent to it. Empty: they go to every admin.").waitFor();
    await field.fill("not-an-email");
    await adminPage.getByRole("button", { name: "Save Settings" }).click();
    await adminPage.getByText("Enter a valid email").waitFor();
    await field.fill("Help@Example.com");
    await adminPage.getByRole("button", { name: "Save Settings" }).click();
    await adminPage.locator("[data-sonner-toast]", { hasText: "Settings updated" }).first().waitFor();
    await adminPage.reload();
    await expect.poll(() => adminPage.getByLabel(/Support email/).inputValue()).toBe("help@example.com");

    const visitor = await h.newPage({ width: 390, height: 844 });
    await visitor.goto("/contact");
    const email = visitor.getByRole("link", { name: "help@example.com" });
    await email.waitFor();
    expect(await email.getAttribute("href")).toBe("mailto:help@example.com");
    await visitor.getByLabel("Full Name").fill("Alan Turing");
    await visitor.getByLabel("Email Address").fill("alan@example.com");
    await visitor.getByLabel("Message", { exact: true }).fill("Is there an API?");
    await visitor.getByRole("button", { name: "Send Message" }).click();
    await visitor.getByText("will reply to alan@example.com.").waitFor();
    const mails = await h.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, "help@example.com"));
    expect(mails.some((m) => m.textBody.includes("alan@example.com"))).toBe(true);

    // Emptied again: the line goes away.
    await field.fill("");
    await adminPage.getByRole("button", { name: "Save Settings" }).click();
    await adminPage.locator("[data-sonner-toast]", { hasText: "Settings updated" }).first().waitFor();
    await visitor.goto("/contact", { waitUntil: "networkidle" });
    await visitor.getByRole("heading", { level: 1, name: "Contact us" }).waitFor();
    expect(await visitor.getByRole("link", { name: "help@example.com" }).count()).toBe(0);
  });
});

describe("screenshots: phone and dark theme", () => {
  for (const variant of [
    { name: "390", width: 390, height: 844, dark: false },
    { name: "dark-390", width: 390, height: 844, dark: true },
    { name: "dark-1440", width: 1440, height: 900, dark: true },
  ]) {
    it(`every public page at ${variant.name}`, async () => {
      const page = await h.newPage({ width: variant.width, height: variant.height });
      if (variant.dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      for (const target of PAGES) {
        await openPage(page, target);
        if (variant.dark) expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: screenshotPath(`public-${target.slug}-${variant.name}.png`), fullPage: true });
      }
    });
  }
});
