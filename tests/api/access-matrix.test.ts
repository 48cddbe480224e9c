import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import { SIGN_IN_NEEDED } from "../../src/server/lib/access.js";
import { NOT_CANONICAL_MESSAGE } from "../../src/server/lib/canonical-path.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { TOKEN_MESSAGES, tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { quizzesApi } from "../../src/shared/contracts/assessment.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import { type Access, type EndpointShape, TOKEN_SCOPES, type TokenScope } from "../../src/shared/contracts/endpoint.js";
import { ADMINS_ONLY } from "../../src/shared/contracts/errors.js";
import { collectionsApi, filesApi } from "../../src/shared/contracts/knowledge.js";
import { OPENAI_MESSAGES } from "../../src/shared/contracts/openai.js";
import { PLAN_REFUSALS } from "../../src/shared/plan.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { contractEndpoints } from "../helpers/contract-endpoints.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";
import { type RawAnswer, rawRequest } from "../helpers/raw-http.js";

/** An endpoint's call as the sockets' `send` takes it: its method, its address filled from the contract, and its body. */
function callOf<E extends EndpointShape>(endpoint: E, input: CallInput<E>): [method: string, path: string, body: unknown] {
  const request = requestFor(endpoint, input);
  return [String(request.method), String(request.url), request.payload];
}

/**
 * The permission matrix (issue 28): every endpoint of the contracts, as every role, over real HTTP on a socket,
 * so the path reaches the server exactly as written. An endpoint's access is enforced on the matched route;
 * a path in any other form than the canonical one is a 404 before routing, for everyone.
 */
type Role = "anonymous" | "user" | "earlyAccess" | "admin";
const ROLES: Role[] = ["anonymous", "user", "earlyAccess", "admin"];

let t: TestApp;
let port: number;
let endpoints: EndpointShape[];
const cookies: Record<Role, string | undefined> = { anonymous: undefined, user: undefined, earlyAccess: undefined, admin: undefined };
let adminClient: CookieClient;
/** A plain user's personal API token per scope, each holding that scope alone (decisions 049, 056). */
const tokens = {} as Record<TokenScope, string>;

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await registerAndSignIn(t.app);
  expect(admin.user.role).toBe("admin");
  const user = await registerAndSignIn(t.app);
  const early = await registerAndSignIn(t.app);
  const upgraded = await admin.client.call(adminUsersApi.update, { params: { id: early.user.id }, body: { planType: "earlyAccess" } });
  expect(upgraded.status).toBe(200);
  cookies.admin = admin.client.sessionCookie;
  adminClient = admin.client;
  cookies.user = user.client.sessionCookie;
  cookies.earlyAccess = early.client.sessionCookie;
  for (const scope of TOKEN_SCOPES) {
    const made = await user.client.call(tokensApi.create, { body: { name: scope, expiresInDays: 1, scopes: [scope] } });
    expect(made.status, made.response.body).toBe(201);
    tokens[scope] = made.data.token;
  }
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
  endpoints = await contractEndpoints();
}, 120_000);
afterAll(async () => {
  await t.close();
});

/** A path of the endpoint with every parameter an id nobody has. */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, "999999");
const hasBody = (method: string) => method !== "GET" && method !== "DELETE";

function call(endpoint: Pick<EndpointShape, "method">, path: string, role: Role, method: string = endpoint.method): Promise<RawAnswer> {
  const cookie = cookies[role];
  return rawRequest(port, {
    method,
    path,
    headers: cookie ? { cookie } : {},
    body: hasBody(method) ? "{}" : undefined,
  });
}

/** The refusal an access level gives a role, or null when it lets the role in. */
function expectedRefusal(endpoint: EndpointShape, role: Role): { status: number; message: string } | null {
  const access: Access = endpoint.access;
  if (access === "public") return null;
  // A token's endpoint (the OpenAI-compatible `/v1`, decision 051) never reads a cookie: every role is signed out there.
  if (access === "token") return { status: 401, message: OPENAI_MESSAGES.tokenNeeded };
  // A page a person opens (the API reference, decision 060) sends a visitor to sign in and back instead.
  if (role === "anonymous" && endpoint.errorFormat === "page") return { status: 303, message: "" };
  if (role === "anonymous") return { status: 401, message: SIGN_IN_NEEDED };
  if (access === "admin" && role !== "admin") return { status: 403, message: ADMINS_ONLY };
  if (access === "earlyAccess" && role === "user") return { status: 403, message: PLAN_REFUSALS[endpoint.feature ?? "personalities"] };
  return null;
}

const OUTSIDE_SERVICE_DOWN = /not available|not configured|could not reach/i;
const REFUSALS = new Set([SIGN_IN_NEEDED, ADMINS_ONLY, OPENAI_MESSAGES.tokenNeeded, ...Object.values(PLAN_REFUSALS)]);
/** A failure's message: the app's `{ message }`, or OpenAI's `{ error: { message } }` on `/v1`. */
const messageOf = (answer: RawAnswer) => {
  try {
    const body = JSON.parse(answer.body) as { message?: string; error?: { message?: string } };
    return body.message ?? body.error?.message;
  } catch {
    return undefined;
  }
};

describe("the permission matrix: every endpoint, every role", () => {
  it("refuses exactly the roles the contract leaves out, and lets the others reach the handler", async () => {
    const wrong: string[] = [];
    let refused = 0;
    let admitted = 0;
    for (const endpoint of endpoints) {
      for (const role of ROLES) {
        // Signing out would end the role's session for the rest of the matrix; the anonymous call covers it.
        if (endpoint.path === "/api/logout" && role !== "anonymous") continue;
        const answer = await call(endpoint, concrete(endpoint.path), role);
        const where = `${endpoint.method} ${endpoint.path} as ${role}`;
        const refusal = expectedRefusal(endpoint, role);
        // An outside service nobody set up here (Stripe) answers 503 with what is missing (DESIGN); 500 is a bug.
        if (answer.status === 500 || (answer.status > 500 && !OUTSIDE_SERVICE_DOWN.test(messageOf(answer) ?? "")))
          wrong.push(`${where}: ${answer.status} ${answer.body}`);
        else if (refusal) {
          refused++;
          if (answer.status !== refusal.status || (messageOf(answer) ?? "") !== refusal.message)
            wrong.push(`${where}: expected ${refusal.status} "${refusal.message}", got ${answer.status} ${answer.body}`);
        } else {
          admitted++;
          if (REFUSALS.has(messageOf(answer) ?? "")) wrong.push(`${where}: refused although admitted: ${answer.status} ${answer.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(150);
    expect(admitted).toBeGreaterThan(250);
  });

  it("as a token of each scope: refuses what its scope does not open, and lets the rest reach the handler", async () => {
    const wrong: string[] = [];
    const admitted: Record<string, number> = {};
    for (const endpoint of endpoints) {
      for (const scope of TOKEN_SCOPES) {
        const path = concrete(endpoint.path);
        const answer = await rawRequest(port, {
          method: endpoint.method,
          path,
          headers: { authorization: `Bearer ${tokens[scope]}` },
          body: hasBody(endpoint.method) ? "{}" : undefined,
        });
        const where = `${endpoint.method} ${endpoint.path} with a ${scope} token`;
        const expected = !endpoint.tokenScope
          ? TOKEN_MESSAGES.notForThis
          : endpoint.tokenScope !== scope
            ? TOKEN_MESSAGES.missingScope(endpoint.tokenScope)
            : null;
        if (answer.status >= 500 && !OUTSIDE_SERVICE_DOWN.test(messageOf(answer) ?? ""))
          wrong.push(`${where}: ${answer.status} ${answer.body}`);
        else if (expected) {
          if (answer.status !== 403 || messageOf(answer) !== expected)
            wrong.push(`${where}: expected 403 "${expected}", got ${answer.status} ${answer.body}`);
        } else {
          admitted[scope] = (admitted[scope] ?? 0) + 1;
          if (answer.status === 401 || answer.status === 403)
            wrong.push(`${where}: refused although admitted: ${answer.status} ${answer.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // files:read opens the library's reads (decision 056): the files, one file, its bytes, the collections.
    expect(admitted).toMatchObject({ "files:read": 4 });
    expect(admitted.chat).toBeGreaterThan(15);
  });

  it("enforces the same access on the HEAD twin of every GET route", async () => {
    const wrong: string[] = [];
    for (const endpoint of endpoints.filter((e) => e.method === "GET" && e.access !== "public")) {
      const answer = await call(endpoint, concrete(endpoint.path), "anonymous", "HEAD");
      if (answer.status !== (endpoint.errorFormat === "page" ? 303 : 401)) wrong.push(`HEAD ${endpoint.path}: ${answer.status}`);
    }
    expect(wrong).toEqual([]);
  });
});

/** Every way of writing `/api/...` (or `/v1/...`) that is not the canonical one (issue 28). */
function oddForms(path: string): string[] {
  const prefix = path.startsWith("/v1/") ? "v1" : "api";
  const rest = path.slice(prefix.length + 1); // "/admin/users/999999"
  const segments = rest.split("/").filter(Boolean);
  const first = segments[0] ?? "";
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  const upperHex = (c: string) => hex(c).toUpperCase();
  const p0 = prefix[0] ?? "a";
  const forms = [
    `/${hex(p0)}${prefix.slice(1)}${rest}`,
    `/${hex(p0.toUpperCase())}${prefix.slice(1).toUpperCase()}${rest}`,
    `/${prefix.slice(0, -1)}${hex(prefix.slice(-1))}${rest}`,
    `/${[...prefix].map(upperHex).join("")}${rest}`,
    `/${prefix.toUpperCase()}${rest}`,
    `/${p0.toUpperCase()}${prefix.slice(1)}${rest}`,
    `//${prefix}${rest}`,
    `/${prefix}/${rest}`,
    `/./${prefix}${rest}`,
    `/${prefix}/.${rest}`,
    `/x/../${prefix}${rest}`,
    `/${prefix}/%2e${rest}`,
    `/${prefix}/x/%2E%2E${rest}`,
    `/${prefix}${rest.replace(first, hex(first[0] ?? "a") + first.slice(1))}`,
    `/${prefix}${rest.replace(first, first.slice(0, -1) + upperHex(first.slice(-1)))}`,
    `/${prefix}%2F${rest.slice(1)}`,
    `/${prefix}\\${rest.slice(1)}`,
    `/${prefix}${rest}/.`,
    `/${prefix}${rest}%zz`,
  ];
  return forms;
}

describe("paths not in canonical form", () => {
  it("answer 404 before routing, over every route, signed out, as a plain user and as an admin", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const endpoint of endpoints) {
      for (const path of oddForms(concrete(endpoint.path))) {
        for (const role of ["anonymous", "user", "admin"] as const) {
          const answer = await call(endpoint, path, role);
          checked++;
          if (answer.status !== 404 || messageOf(answer) !== NOT_CANONICAL_MESSAGE)
            wrong.push(`${endpoint.method} ${path} as ${role}: ${answer.status} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(endpoints.length * 19 * 3 - 1);
  });

  it("the review's attacks: admin reads and writes through an encoded prefix, and a NUL behind it", async () => {
    const read = await rawRequest(port, { method: "GET", path: "/%61pi/admin/contact-messages" });
    expect(read.status).toBe(404);
    const write = await rawRequest(port, { method: "PATCH", path: "/%61pi/admin/payment-settings", body: JSON.stringify({ price: 0.5 }) });
    expect(write.status).toBe(404);
    const nul = await rawRequest(port, {
      method: "POST",
      path: "/%61pi/login",
      body: JSON.stringify({ username: "a\u0000b", password: "x" }),
    });
    expect(nul.status).toBe(404);
    // The same calls written canonically are refused by the route's own access, and the NUL by the text guard.
    expect((await rawRequest(port, { method: "GET", path: "/api/admin/contact-messages" })).status).toBe(401);
    expect((await rawRequest(port, { method: "PATCH", path: "/api/admin/payment-settings", body: "{}" })).status).toBe(401);
    expect(
      (await rawRequest(port, { method: "POST", path: "/api/login", body: JSON.stringify({ username: "a\u0000b", password: "x" }) }))
        .status,
    ).toBe(400);
  });

  it("leaves canonical paths alone: encoded reserved and non-ASCII characters, and pages", async () => {
    const encoded = await rawRequest(port, {
      method: "GET",
      path: "/api/chats/search?q=caf%C3%A9%20au%20lait",
      headers: { cookie: cookies.user ?? "" },
    });
    expect(encoded.status).toBe(200);
    const session = await rawRequest(port, { method: "GET", path: "/api/session" });
    expect(session.status).toBe(200);
    expect(JSON.parse(session.body)).toEqual({ user: null });
  });
});

/**
 * A course made from its owner's files (issue 31), as every role: its lesson's tutor follows who may read the lesson
 * (a public course: any signed-in reader; a private one: its owner and admins; others 404), and a reader can never obtain
 * a passage of the owner's that the course did not cite, by any route that names a file, a collection or a citation, nor
 * through the tutor's reply. Last in this file: it points the platform at a stand-in, which the walk above must not have.
 */
describe("the owner's material behind a course, as every role", () => {
  const CITED = "The quokkatron enzyme unwinds the spiral ladder before the copy begins.";
  const UNCITED = "The wombatine cellar code is 5512.";
  const filler = (word: string) => `${word} cells divide and grow while the membrane keeps the inside apart. `.repeat(70);
  let fake: FakeProvider;
  let owner: CookieClient;
  let ownerCookie: string | undefined;
  let fileId: number;
  let collectionId: number;
  let publicLesson: number;
  let privateLesson: number;

  async function lessonOf(isPublic: boolean): Promise<{ courseId: number; lessonId: number }> {
    const courseId = (await owner.ok(coursesApi.create, { body: { title: `Cells ${isPublic}`, isPublic, status: "published" } })).id;
    const module = await owner.ok(coursesApi.createModule, { params: { id: courseId }, body: { title: "Cells" } });
    const lesson = await owner.ok(lessonsApi.create, {
      params: { id: module.id },
      body: { title: "Enzymes", type: "reading", content: "Enzymes speed reactions up." },
    });
    return { courseId, lessonId: lesson.id };
  }

  beforeAll(async () => {
    fake = await startOpenAiCompatibleFake();
    await pointPlatformAt(adminClient, "openai", fake);
    ({ client: owner } = await registerAndSignIn(t.app));
    ownerCookie = owner.sessionCookie;
    const collection = await owner.call(collectionsApi.create, { body: { name: "Biology" } });
    expect(collection.status, collection.response.body).toBe(201);
    collectionId = collection.data.id;
    const text = `# Cellar\n\n${UNCITED} ${filler("Wombatine")}\n\n# Enzymes\n\n${CITED} ${filler("Quokkatron")}`;
    const multipart = multipartFile("file", "biology.md", "text/markdown", new TextEncoder().encode(text), {
      collectionId: String(collectionId),
    });
    const uploaded = await owner.call(filesApi.upload, {}, { multipart });
    expect(uploaded.status, uploaded.response.body).toBe(201);
    fileId = (await settledFile(owner, uploaded.data.id)).id;
    const pieces = await t.app.ctx.db.execute(sql`select id, content from knowledge_chunks where file_id = ${fileId} order by chunk_index`);
    const cited = (pieces.rows as { id: number; content: string }[]).find((row) => row.content.includes("quokkatron enzyme"));
    if (!cited || cited.content.includes("5512")) throw new Error("the cited piece should hold the cited passage only");
    const made = await lessonOf(true);
    publicLesson = made.lessonId;
    privateLesson = (await lessonOf(false)).lessonId;
    await t.app.ctx.db.insert(lessonSources).values({
      lessonId: made.lessonId,
      courseId: made.courseId,
      n: 1,
      kind: "file",
      fileId,
      chunkId: Number(cited.id),
      fileName: "biology.md",
      passage: cited.content,
    });
  }, 120_000);
  afterAll(async () => {
    await fake?.close();
  });

  const asRole = (role: Role | "owner") => (role === "owner" ? ownerCookie : cookies[role]);
  const send = (role: Role | "owner", method: string, path: string, body?: unknown) => {
    const cookie = asRole(role);
    return rawRequest(port, {
      method,
      path,
      headers: cookie ? { cookie } : {},
      body: hasBody(method) ? JSON.stringify(body ?? {}) : undefined,
    });
  };

  it("opens a lesson's tutor for exactly those who may read the lesson", async () => {
    const expected: Record<Role | "owner", [publicCourse: number, privateCourse: number]> = {
      anonymous: [401, 401],
      user: [200, 404],
      earlyAccess: [200, 404],
      admin: [200, 200],
      owner: [200, 200],
    };
    const wrong: string[] = [];
    for (const [role, [onPublic, onPrivate]] of Object.entries(expected) as [Role | "owner", [number, number]][]) {
      const a = await send(role, ...callOf(lessonsApi.tutor, { params: { id: publicLesson } }));
      const b = await send(role, ...callOf(lessonsApi.tutor, { params: { id: privateLesson } }));
      if (a.status !== onPublic) wrong.push(`public course's tutor as ${role}: ${a.status} ${a.body}`);
      if (b.status !== onPrivate) wrong.push(`private course's tutor as ${role}: ${b.status} ${b.body}`);
      if (onPrivate === 404 && messageOf(b) !== "Lesson not found") wrong.push(`private course's tutor as ${role}: ${b.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it("never gives a reader a passage of the owner's that the course did not cite", async () => {
    const wrong: string[] = [];
    // Every route that names a file or a collection, with the owner's ids, as readers of the course.
    const named = endpoints.filter((e) => /^\/api\/(files|collections)\/:id/.test(e.path));
    expect(named.length).toBeGreaterThan(4);
    for (const role of ["user", "earlyAccess"] as const) {
      for (const endpoint of named) {
        const id = endpoint.path.startsWith("/api/files") ? fileId : collectionId;
        const answer = await send(role, endpoint.method, endpoint.path.replace(":id", String(id)), { name: "Mine now" });
        if (answer.status < 400 || answer.body.includes("5512"))
          wrong.push(`${endpoint.method} ${endpoint.path} as ${role}: ${answer.status}`);
      }
      const listed = await send(role, ...callOf(filesApi.list, {}));
      if (listed.body.includes("biology.md")) wrong.push(`GET /api/files as ${role} lists the owner's file`);
    }
    // The owner's file and collection are untouched by all that.
    const ownFile = await send("owner", ...callOf(filesApi.get, { params: { id: fileId } }));
    expect(ownFile.status).toBe(200);
    expect(filesApi.get.response.parse(JSON.parse(ownFile.body))).toMatchObject({ name: "biology.md", collectionId });

    // The tutor's reply, asked with the uncited passage's words: its request, its answer and its citation hold the cited
    // passage at most.
    const tutor = await send("user", ...callOf(lessonsApi.tutor, { params: { id: publicLesson } }));
    const { chatId } = lessonsApi.tutor.response.parse(JSON.parse(tutor.body));
    const before = fake.requests.length;
    // A stream: through inject, which reads it to its end.
    const reply = await t.app.inject(
      requestFor(
        chatsApi.reply,
        { params: { id: chatId }, body: { content: "What is the wombatine cellar code? And the quokkatron? [1]" } },
        { headers: { cookie: cookies.user ?? "" } },
      ),
    );
    expect(reply.statusCode, reply.body).toBe(200);
    const sent = JSON.stringify(fake.requests.slice(before).map((r) => r.body));
    expect(sent).toContain("quokkatron enzyme");
    if (sent.includes("5512")) wrong.push("the tutor's provider request carried an uncited passage");
    if (reply.body.includes("5512")) wrong.push("the tutor's reply carried an uncited passage");
    const done = parseEvents(reply.body).at(-1);
    const replyId = done?.type === "done" ? done.assistantMessage.id : 0;
    const citation = await send("user", ...callOf(chatsApi.citation, { params: { id: chatId, messageId: replyId, n: 1 } }));
    expect(citation.status, citation.body).toBe(200);
    expect(JSON.parse(citation.body)).toMatchObject({ fileId, before: "", after: "", headingPath: "" });
    if (citation.body.includes("5512") || /wombatine/i.test(citation.body)) wrong.push("the citation showed the text around the piece");
    // Nor does someone else's citation of it open for another reader.
    const other = await send("earlyAccess", ...callOf(chatsApi.citation, { params: { id: chatId, messageId: replyId, n: 1 } }));
    if (other.status !== 404) wrong.push(`another reader's citation: ${other.status}`);
    expect(wrong).toEqual([]);
  });
});

/**
 * A quiz (issue 32), as every role: its owner's calls are the course's owner's and admins' (a reader gets the course's
 * 403); its attempts are for whoever may read the lesson; an attempt is its learner's alone, a 404 for everyone else.
 */
describe("a quiz, as every role", () => {
  let owner: CookieClient;
  let ownerCookie: string | undefined;
  const quizzes: Record<"public" | "private", { quizId: number; questionId: number }> = {
    public: { quizId: 0, questionId: 0 },
    private: { quizId: 0, questionId: 0 },
  };

  beforeAll(async () => {
    ({ client: owner } = await registerAndSignIn(t.app));
    ownerCookie = owner.sessionCookie;
    for (const kind of ["public", "private"] as const) {
      const course = await owner.ok(coursesApi.create, {
        body: { title: `Quiz ${kind}`, isPublic: kind === "public", status: "published" },
      });
      const module = await owner.ok(coursesApi.createModule, { params: { id: course.id }, body: { title: "M" } });
      const quiz = await owner.ok(lessonsApi.create, { params: { id: module.id }, body: { title: "Q", type: "quiz", kind: "quiz" } });
      const question = await owner.call(quizzesApi.addQuestion, {
        params: { id: quiz.id },
        body: { kind: "truefalse", prompt: "Yes?", correct: [0] },
      });
      expect(question.status, question.response.body).toBe(201);
      expect((await owner.call(quizzesApi.publish, { params: { id: quiz.id }, body: { passMark: 50, attempts: null } })).status).toBe(200);
      quizzes[kind] = { quizId: quiz.id, questionId: question.data.id };
    }
  }, 60_000);

  const send = (role: Role | "owner", method: string, path: string, body?: unknown) => {
    const cookie = role === "owner" ? ownerCookie : cookies[role];
    return rawRequest(port, {
      method,
      path,
      headers: cookie ? { cookie } : {},
      body: hasBody(method) ? JSON.stringify(body ?? {}) : undefined,
    });
  };
  const ROLES_AND_OWNER: (Role | "owner")[] = ["anonymous", "user", "earlyAccess", "admin", "owner"];

  it("lets exactly the owner and admins read and write the questions, and readers take the quiz where they may read it", async () => {
    const wrong: string[] = [];
    for (const kind of ["public", "private"] as const) {
      const { quizId } = quizzes[kind];
      for (const role of ROLES_AND_OWNER) {
        const editor = role === "owner" || role === "admin";
        const reader = editor || (kind === "public" && role !== "anonymous");
        const checks: [string, number][] = [
          [`GET /api/lessons/${quizId}/quiz`, role === "anonymous" ? 401 : editor ? 200 : 403],
          [`POST /api/lessons/${quizId}/attempts`, role === "anonymous" ? 401 : reader ? 200 : 403],
          [`GET /api/lessons/${quizId}/attempts`, role === "anonymous" ? 401 : reader ? 200 : 403],
        ];
        for (const [call, status] of checks) {
          const [method = "GET", path = ""] = call.split(" ");
          const answer = await send(role, method, path);
          if (answer.status !== status)
            wrong.push(`${kind}: ${call} as ${role}: expected ${status}, got ${answer.status} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers an attempt to its learner only: every other role gets 404 (401 signed out)", async () => {
    const { quizId, questionId } = quizzes.public;
    const started = await send("user", ...callOf(quizzesApi.startAttempt, { params: { id: quizId } }));
    const mine = quizzesApi.startAttempt.response.parse(JSON.parse(started.body));
    const wrong: string[] = [];
    for (const role of ROLES_AND_OWNER) {
      const calls = [
        callOf(quizzesApi.attempt, { params: { id: mine.id } }),
        callOf(quizzesApi.saveAnswer, { params: { id: mine.id, questionId }, body: { value: [1] } }),
        callOf(quizzesApi.submit, { params: { id: mine.id } }),
      ];
      for (const [method, path, body] of calls) {
        if (role === "user" && method !== "GET") continue; // the learner's own writes are the quiz tests' business
        const expected = role === "anonymous" ? 401 : role === "user" ? 200 : 404;
        const answer = await send(role, method, path, body);
        if (answer.status !== expected) wrong.push(`${method} ${path} as ${role}: expected ${expected}, got ${answer.status}`);
      }
    }
    const still = quizzesApi.attempt.response.parse(
      JSON.parse((await send("user", ...callOf(quizzesApi.attempt, { params: { id: mine.id } }))).body),
    );
    expect(still).toMatchObject({ status: "open", answers: [] });
    expect(wrong).toEqual([]);
  });
});
