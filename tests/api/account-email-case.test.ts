// One account per email whatever its case (decision 004, issue 28): the shared email field lower-cases what is
// typed, every place that writes an account's email stores it so, and every one refuses an address taken in
// another case with the product's words; sign-in by email stays case-insensitive.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../src/server/lib/app-error.js";
import { createOrPromoteAdmin } from "../../src/server/modules/auth/create-admin.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { buildTestApp, CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

const EMAIL_TAKEN = "An account with this email already exists";
const USERNAME_TAKEN = "Username already exists";

let t: TestApp;
let admin: CookieClient;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

/** A sign-up from a new browser. */
const register = (overrides: Record<string, unknown>) =>
  new CookieClient(t.app).call(authApi.register, { body: { ...newAccount(overrides), planType: "free" as const } });
const addUser = (body: { username: string; password: string; email?: string }) => admin.call(adminUsersApi.create, { body });
const setProfileEmail = (client: CookieClient, email: string) => client.call(userApi.updateProfile, { body: { email } });

async function storedEmail(id: number): Promise<string | null> {
  const result = await t.database.db.execute(sql`select email from users where id = ${id}`);
  return (result.rows[0] as { email: string | null } | undefined)?.email ?? null;
}

describe("an account's email, whatever the case it is typed in", () => {
  it("registration stores MixedCase@Example.com lower-case, refuses mixedcase@example.com, and signs in by either", async () => {
    const first = await register({ email: "  MixedCase@Example.com " });
    expect(first.status).toBe(201);
    expect(first.data.email).toBe("mixedcase@example.com");
    expect(await storedEmail(first.data.id)).toBe("mixedcase@example.com");

    const second = await register({ email: "mixedcase@example.com" });
    expect(second.status).toBe(409);
    // The refusals are compared whole, on the raw body.
    expect(second.response.json()).toEqual({ message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } });

    for (const typed of ["MixedCase@Example.com", "MIXEDCASE@EXAMPLE.COM", "mixedcase@example.com"]) {
      const login = await new CookieClient(t.app).call(authApi.login, { body: { username: typed, password: "Str0ng!pass" } });
      expect({ typed, status: login.status }).toEqual({ typed, status: 200 });
    }
  });

  it("the admin's Add User stores it lower-case and refuses the same address in another case", async () => {
    const created = await addUser({ username: `made${Date.now()}`, password: "Secr3t!pw", email: "Admin.Made@Example.com" });
    expect(created.status).toBe(201);
    expect(created.data.email).toBe("admin.made@example.com");
    expect(await storedEmail(created.data.id)).toBe("admin.made@example.com");

    for (const email of ["admin.made@example.com", "MIXEDCASE@example.com"]) {
      const again = await addUser({ username: `again${Date.now()}`, password: "Secr3t!pw", email });
      expect({ email, status: again.status }).toEqual({ email, status: 409 });
      expect(again.response.json()).toEqual({ message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } });
    }
    const edit = (email: string) => admin.call(adminUsersApi.update, { params: { id: created.data.id }, body: { email } });
    expect((await edit("Admin.Edited@Example.com")).data.email).toBe("admin.edited@example.com");
    const taken = await edit("MixedCase@EXAMPLE.com");
    expect(taken.status).toBe(409);
    expect(taken.response.json()).toEqual({ message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } });
  });

  it("the profile stores it lower-case and refuses the same address in another case", async () => {
    const a = await registerAndSignIn(t.app);
    const b = await registerAndSignIn(t.app);
    const saved = await setProfileEmail(a.client, " Profile.Case@Example.com ");
    expect(saved.status).toBe(200);
    expect(saved.data.email).toBe("profile.case@example.com");
    expect(await storedEmail(a.user.id)).toBe("profile.case@example.com");

    const taken = await setProfileEmail(b.client, "profile.case@example.com");
    expect(taken.status).toBe(409);
    expect(taken.response.json()).toEqual({ message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } });
    // The account's own address, in another case, is not "taken".
    const own = await setProfileEmail(a.client, "PROFILE.CASE@example.com");
    expect(own.status).toBe(200);
  });

  it("parallel profile updates to one address: one is saved, the others are told it is taken (the unique index decides)", async () => {
    const racers = await Promise.all([1, 2, 3, 4, 5].map(() => registerAndSignIn(t.app)));
    const answers = await Promise.all(
      racers.map((racer, i) => setProfileEmail(racer.client, i % 2 ? "Race.Winner@Example.com" : "race.winner@example.com")),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.error.message).toBe(EMAIL_TAKEN);
  });

  it("create-admin refuses an email another account has, in any case, with the product's words", async () => {
    const taken = await createOrPromoteAdmin({
      db: t.database.db,
      input: { username: `ops${Date.now()}`, password: "Str0ng!pass", email: "mixedcase@example.com" },
    }).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(AppError);
    expect((taken as AppError).message).toBe(EMAIL_TAKEN);

    const made = await createOrPromoteAdmin({
      db: t.database.db,
      input: { username: `ops2${Date.now()}`, password: "Str0ng!pass", email: "ops.free@example.com" },
    });
    expect(made.created).toBe(true);
    expect(await storedEmail(made.id)).toBe("ops.free@example.com");
  });

  it("a username is taken in any case too, everywhere", async () => {
    const { body } = await registerAndSignIn(t.app);
    const upper = body.username.toUpperCase();
    const registered = await register({ username: upper });
    expect(registered.response.json()).toEqual({ message: USERNAME_TAKEN, errors: { username: USERNAME_TAKEN } });
    const adminCreate = await addUser({ username: upper, password: "Secr3t!pw" });
    expect(adminCreate.response.json()).toEqual({ message: USERNAME_TAKEN, errors: { username: USERNAME_TAKEN } });
  });
});
