import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { emailOutbox, platformSettings } from "../../src/server/db/schema/index.js";
import { SecretBox } from "../../src/server/lib/secret-box.js";
import { OutboxWorker } from "../../src/server/modules/email/outbox-worker.js";
import { queueRendered } from "../../src/server/modules/email/queue.js";
import { FAKE_SMTP_PASS, FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { createScratchPostgres } from "../helpers/test-database.js";

/**
 * Two outbox workers, each on its own connection pool to one PostgreSQL (as two instances are), share a
 * queue of 50 emails: `FOR UPDATE SKIP LOCKED` gives every row to one of them, so each email arrives once.
 * Part of the PostgreSQL pass (npm run test:pg).
 */
let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let one: Database;
let two: Database;
let smtp: SmtpFake;
const secrets = new SecretBox("two-workers-secret-two-workers-secret-0123");

beforeAll(async () => {
  scratch = await createScratchPostgres();
  smtp = await startSmtpFake();
  one = await openDatabase({ url: scratch.url, poolSize: 4 });
  two = await openDatabase({ url: scratch.url, poolSize: 4 });
  await one.db.insert(platformSettings).values({
    smtpHost: smtp.host,
    smtpPort: String(smtp.port),
    smtpUser: FAKE_SMTP_USER,
    smtpPassEncrypted: secrets.seal(FAKE_SMTP_PASS),
    smtpFromEmail: "noreply@lumora.test",
    smtpFromName: "Lumora",
  });
}, 60_000);
afterAll(async () => {
  await one?.close();
  await two?.close();
  await smtp?.close();
  await scratch?.drop();
});

describe("two outbox workers on one PostgreSQL", () => {
  it("send 50 queued emails, each exactly once, both taking a share", async () => {
    const count = 50;
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const { id } = await queueRendered({
        db: one.db,
        to: `reader${i}@example.com`,
        templateSlug: null,
        subject: `Message ${i}`,
        text: `Body ${i}`,
        html: `<p>Body ${i}</p>`,
      });
      ids.push(id);
    }
    const timing = { tickMs: 20, batchSize: 3 };
    const a = new OutboxWorker({ db: one.db, secrets, instanceId: "instance-a", timing });
    const b = new OutboxWorker({ db: two.db, secrets, instanceId: "instance-b", timing });
    // Both drain at once, then keep ticking until the queue is empty.
    await Promise.all([a.start(), b.start()]);
    await smtp.waitFor(count, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    await Promise.all([a.close(), b.close()]);

    expect(smtp.messages).toHaveLength(count);
    const subjects = new Set(smtp.messages.map((m) => m.subject));
    expect(subjects.size).toBe(count);
    const rows = await one.db.select().from(emailOutbox);
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(count);
    for (const row of rows) expect(row.claimedBy).toBeNull();

    expect(a.stats.sent + b.stats.sent).toBe(count);
    expect(a.stats.sent).toBeGreaterThan(0);
    expect(b.stats.sent).toBeGreaterThan(0);
    const [first] = await one.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.id, ids[0] as number));
    expect(first?.sentAt).not.toBeNull();
  }, 60_000);
});
