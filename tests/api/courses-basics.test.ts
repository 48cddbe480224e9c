import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let admin: CookieClient;
let owner: CookieClient;
let other: CookieClient;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  owner = (await registerAndSignIn(t.app)).client;
  other = (await registerAndSignIn(t.app)).client;
});
afterAll(() => t.close());

const lesson = (title: string) => ({ title, type: "reading" as const, content: `# ${title}` });

describe("courses, modules and lessons", () => {
  it("creates a private draft, appends modules and lessons in order, and returns the outline", async () => {
    const created = await owner.call(coursesApi.create, { body: { title: "Intro to Rust" } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ status: "draft", isPublic: false, description: "" });
    const id = created.data.id;
    const m1 = await owner.ok(coursesApi.createModule, { params: { id: id }, body: { title: "Basics", order: 99 } });
    const m2 = await owner.ok(coursesApi.createModule, { params: { id: id }, body: { title: "Ownership" } });
    expect([m1.order, m2.order]).toEqual([1, 2]);
    const l1 = await owner.ok(lessonsApi.create, { params: { id: m1.id }, body: lesson("Install") });
    const l2 = await owner.ok(lessonsApi.create, { params: { id: m1.id }, body: lesson("Hello") });
    expect([l1.order, l2.order]).toEqual([1, 2]);
    const read = await owner.call(coursesApi.outline, { params: { id } });
    const outline = read.data;
    expect(outline.canEdit).toBe(true);
    expect(outline.modules.map((m) => [m.title, m.lessons.map((l) => l.title)])).toEqual([
      ["Basics", ["Install", "Hello"]],
      ["Ownership", []],
    ]);
    // Read from the raw answer: the typed one would drop a field the contract does not name.
    expect(read.response.json().modules[0].lessons[0].content).toBeUndefined();
    expect(outline.progress).toEqual({ completed: 0, total: 2, nextLessonId: l1.id, complete: false, certificateCode: null });
    expect(outline.learners).toEqual({ started: 0, finished: 0 });
  });

  it("hides a private or draft course (403 Access Restricted) and 404s an unknown one; writes need owner or admin", async () => {
    const id = (await owner.ok(coursesApi.create, { body: { title: "Secret course" } })).id;
    const module = await owner.ok(coursesApi.createModule, { params: { id: id }, body: { title: "M" } });
    const l = await owner.ok(lessonsApi.create, { params: { id: module.id }, body: lesson("L") });
    const reads = {
      course: () => other.call(coursesApi.get, { params: { id } }),
      outline: () => other.call(coursesApi.outline, { params: { id } }),
      module: () => other.call(lessonsApi.getModule, { params: { id: module.id } }),
      lesson: () => other.call(lessonsApi.get, { params: { id: l.id } }),
    };
    for (const [url, read] of Object.entries(reads)) {
      const res = await read();
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
      expect(res.error.message).toBe("You don't have permission to view this course.");
    }
    expect((await other.call(coursesApi.get, { params: { id: 99999999 } })).response.json()).toEqual({ message: "Course not found" });
    // Public + published: readable by others, still not writable.
    expect((await owner.call(coursesApi.update, { params: { id }, body: { status: "published", isPublic: true } })).status).toBe(200);
    expect((await other.ok(lessonsApi.get, { params: { id: l.id } })).content).toBe("# L");
    const write = await other.call(lessonsApi.update, { params: { id: l.id }, body: { content: "hacked" } });
    expect(write.status).toBe(403);
    expect(write.error.message).toBe("You don't have permission to edit this course.");
    expect((await other.call(coursesApi.remove, { params: { id } })).status).toBe(403);
    expect((await admin.call(lessonsApi.update, { params: { id: l.id }, body: { content: "Fixed by admin" } })).status).toBe(200);
    expect((await owner.ok(lessonsApi.get, { params: { id: l.id } })).content).toBe("Fixed by admin");
  });

  it("keeps orders dense through moves and deletes, and deletes a module's lessons with it", async () => {
    const id = (await owner.ok(coursesApi.create, { body: { title: "Ordering" } })).id;
    const ids: number[] = [];
    for (const title of ["A", "B", "C"]) ids.push((await owner.ok(coursesApi.createModule, { params: { id: id }, body: { title } })).id);
    const moved = await owner.ok(lessonsApi.moveModule, { params: { id: ids[2] }, body: { direction: "up" } });
    expect(moved.map((m) => `${m.order}${m.title}`)).toEqual(["1A", "2C", "3B"]);
    await owner.ok(lessonsApi.create, { params: { id: ids[0] }, body: lesson("x") });
    expect((await owner.call(lessonsApi.removeModule, { params: { id: ids[0] } })).status).toBe(204);
    const after = await owner.ok(coursesApi.modules, { params: { id } });
    expect(after.map((m) => `${m.order}${m.title}`)).toEqual(["1C", "2B"]);
    const left = await t.database.db.execute(`select count(*)::int as n from lessons where course_id = ${id}`);
    expect((left.rows[0] as { n: number }).n).toBe(0);
  });

  it("keeps the previous content as a version and restores it; tracks a reader's progress", async () => {
    const id = (await owner.ok(coursesApi.create, { body: { title: "Versions" } })).id;
    await owner.ok(coursesApi.update, { params: { id }, body: { status: "published", isPublic: true } });
    const m = await owner.ok(coursesApi.createModule, { params: { id: id }, body: { title: "M" } });
    const l = await owner.ok(lessonsApi.create, { params: { id: m.id }, body: lesson("One") });
    await owner.ok(lessonsApi.update, { params: { id: l.id }, body: { content: "Second draft" } });
    const versions = await owner.ok(lessonsApi.versions, { params: { id: l.id } });
    expect(versions.map((v) => v.content)).toEqual(["# One"]);
    expect((await other.call(lessonsApi.versions, { params: { id: l.id } })).status).toBe(403);
    const restored = await owner.ok(lessonsApi.restoreVersion, { params: { id: l.id, versionId: versions[0]?.id } });
    expect(restored.content).toBe("# One");

    expect(await other.ok(lessonsApi.complete, { params: { id: l.id } })).toEqual({ completed: true });
    expect((await other.ok(coursesApi.outline, { params: { id } })).progress).toMatchObject({
      completed: 1,
      total: 1,
      nextLessonId: null,
      complete: true,
    });
    expect((await owner.ok(coursesApi.outline, { params: { id } })).learners).toEqual({ started: 1, finished: 1 });
    expect(await other.ok(lessonsApi.uncomplete, { params: { id: l.id } })).toEqual({ completed: false });
    expect((await other.ok(coursesApi.outline, { params: { id } })).progress.completed).toBe(0);
  });

  it("refuses bad input with the product's messages", async () => {
    expect((await owner.call(coursesApi.create, { body: { title: "ab" } })).error.errors).toEqual({
      title: "Title must be at least 3 characters",
    });
    const id = (await owner.ok(coursesApi.create, { body: { title: "Valid" } })).id;
    expect((await owner.call(coursesApi.update, { params: { id }, body: { title: "" } })).error.errors).toEqual({
      title: "Title is required",
    });
    const m = await owner.ok(coursesApi.createModule, { params: { id: id }, body: { title: "M" } });
    const bad = (
      await owner.call(lessonsApi.create, { params: { id: m.id }, body: lesson("") }, { rawBody: { title: "", type: "poem", content: "" } })
    ).error;
    expect(bad.errors).toMatchObject({ title: "Title is required", type: "Type is required", content: "Content is required" });
    expect((await callApp(t.app, coursesApi.list, {})).status).toBe(401);
  });
});
