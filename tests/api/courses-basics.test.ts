import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const lesson = (title: string) => ({ title, type: "reading", content: `# ${title}` });

describe("courses, modules and lessons", () => {
  it("creates a private draft, appends modules and lessons in order, and returns the outline", async () => {
    const created = await owner.post("/api/courses", { title: "Intro to Rust" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ status: "draft", isPublic: false, description: "" });
    const id = created.json().id as number;
    const m1 = (await owner.post(`/api/courses/${id}/modules`, { title: "Basics", order: 99 })).json();
    const m2 = (await owner.post(`/api/courses/${id}/modules`, { title: "Ownership" })).json();
    expect([m1.order, m2.order]).toEqual([1, 2]);
    const l1 = (await owner.post(`/api/modules/${m1.id}/lessons`, lesson("Install"))).json();
    const l2 = (await owner.post(`/api/modules/${m1.id}/lessons`, lesson("Hello"))).json();
    expect([l1.order, l2.order]).toEqual([1, 2]);
    const outline = (await owner.get(`/api/courses/${id}/outline`)).json();
    expect(outline.canEdit).toBe(true);
    expect(outline.modules.map((m: { title: string; lessons: { title: string }[] }) => [m.title, m.lessons.map((l) => l.title)])).toEqual([
      ["Basics", ["Install", "Hello"]],
      ["Ownership", []],
    ]);
    expect(outline.modules[0].lessons[0].content).toBeUndefined();
    expect(outline.progress).toEqual({ completed: 0, total: 2, nextLessonId: l1.id, complete: false, certificateCode: null });
    expect(outline.learners).toEqual({ started: 0, finished: 0 });
  });

  it("hides a private or draft course (403 Access Restricted) and 404s an unknown one; writes need owner or admin", async () => {
    const id = (await owner.post("/api/courses", { title: "Secret course" })).json().id as number;
    const module = (await owner.post(`/api/courses/${id}/modules`, { title: "M" })).json();
    const l = (await owner.post(`/api/modules/${module.id}/lessons`, lesson("L"))).json();
    for (const url of [`/api/courses/${id}`, `/api/courses/${id}/outline`, `/api/modules/${module.id}`, `/api/lessons/${l.id}`]) {
      const res = await other.get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.json().message).toBe("You don't have permission to view this course.");
    }
    expect((await other.get("/api/courses/99999999")).json()).toEqual({ message: "Course not found" });
    // Public + published: readable by others, still not writable.
    expect((await owner.patch(`/api/courses/${id}`, { status: "published", isPublic: true })).statusCode).toBe(200);
    expect((await other.get(`/api/lessons/${l.id}`)).json().content).toBe("# L");
    const write = await other.patch(`/api/lessons/${l.id}`, { content: "hacked" });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe("You don't have permission to edit this course.");
    expect((await other.request({ method: "DELETE", url: `/api/courses/${id}` })).statusCode).toBe(403);
    expect((await admin.patch(`/api/lessons/${l.id}`, { content: "Fixed by admin" })).statusCode).toBe(200);
    expect((await owner.get(`/api/lessons/${l.id}`)).json().content).toBe("Fixed by admin");
  });

  it("keeps orders dense through moves and deletes, and deletes a module's lessons with it", async () => {
    const id = (await owner.post("/api/courses", { title: "Ordering" })).json().id as number;
    const ids: number[] = [];
    for (const title of ["A", "B", "C"]) ids.push((await owner.post(`/api/courses/${id}/modules`, { title })).json().id);
    const moved = (await owner.post(`/api/modules/${ids[2]}/move`, { direction: "up" })).json();
    expect(moved.map((m: { title: string; order: number }) => `${m.order}${m.title}`)).toEqual(["1A", "2C", "3B"]);
    await owner.post(`/api/modules/${ids[0]}/lessons`, lesson("x"));
    expect((await owner.request({ method: "DELETE", url: `/api/modules/${ids[0]}` })).statusCode).toBe(204);
    const after = (await owner.get(`/api/courses/${id}/modules`)).json();
    expect(after.map((m: { title: string; order: number }) => `${m.order}${m.title}`)).toEqual(["1C", "2B"]);
    const left = await t.database.db.execute(`select count(*)::int as n from lessons where course_id = ${id}`);
    expect((left.rows[0] as { n: number }).n).toBe(0);
  });

  it("keeps the previous content as a version and restores it; tracks a reader's progress", async () => {
    const id = (await owner.post("/api/courses", { title: "Versions" })).json().id as number;
    await owner.patch(`/api/courses/${id}`, { status: "published", isPublic: true });
    const m = (await owner.post(`/api/courses/${id}/modules`, { title: "M" })).json();
    const l = (await owner.post(`/api/modules/${m.id}/lessons`, lesson("One"))).json();
    await owner.patch(`/api/lessons/${l.id}`, { content: "Second draft" });
    const versions = (await owner.get(`/api/lessons/${l.id}/versions`)).json();
    expect(versions.map((v: { content: string }) => v.content)).toEqual(["# One"]);
    expect((await other.get(`/api/lessons/${l.id}/versions`)).statusCode).toBe(403);
    const restored = await owner.post(`/api/lessons/${l.id}/versions/${versions[0].id}/restore`);
    expect(restored.json().content).toBe("# One");

    expect((await other.post(`/api/lessons/${l.id}/complete`)).json()).toEqual({ completed: true });
    expect((await other.get(`/api/courses/${id}/outline`)).json().progress).toMatchObject({
      completed: 1,
      total: 1,
      nextLessonId: null,
      complete: true,
    });
    expect((await owner.get(`/api/courses/${id}/outline`)).json().learners).toEqual({ started: 1, finished: 1 });
    expect((await other.request({ method: "DELETE", url: `/api/lessons/${l.id}/complete` })).json()).toEqual({ completed: false });
    expect((await other.get(`/api/courses/${id}/outline`)).json().progress.completed).toBe(0);
  });

  it("refuses bad input with the product's messages", async () => {
    expect((await owner.post("/api/courses", { title: "ab" })).json().errors).toEqual({ title: "Title must be at least 3 characters" });
    const id = (await owner.post("/api/courses", { title: "Valid" })).json().id as number;
    expect((await owner.patch(`/api/courses/${id}`, { title: "" })).json().errors).toEqual({ title: "Title is required" });
    const m = (await owner.post(`/api/courses/${id}/modules`, { title: "M" })).json();
    const bad = (await owner.post(`/api/modules/${m.id}/lessons`, { title: "", type: "poem", content: "" })).json();
    expect(bad.errors).toMatchObject({ title: "Title is required", type: "Type is required", content: "Content is required" });
    expect((await t.app.inject({ method: "GET", url: "/api/courses" })).statusCode).toBe(401);
  });
});
