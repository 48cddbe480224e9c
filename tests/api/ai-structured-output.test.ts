// Structured answers (outlines, quiz drafts, AI grades) on OpenAI-compatible platforms (decision 059): the schema is sent
// as structured output where the server takes it, the shape is named in the prompt everywhere (a server in JSON mode
// gets no schema), an answer in a Markdown fence is repaired, and an invalid answer is asked again once before failing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quizzesApi } from "../../src/shared/contracts/assessment.js";
import { courseAiApi, coursesApi } from "../../src/shared/contracts/courses.js";
import { FAKE_OUTLINE, FAKE_QUESTIONS } from "../fakes/fake-behaviour.js";
import type { FakeProvider, RecordedRequest } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { addQuestions, adminOwnerLearner, publish, quizCourse } from "../helpers/quiz-kit.js";

let t: TestApp;
let withSchema: FakeProvider;
let jsonModeOnly: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let learner: CookieClient;

beforeAll(async () => {
  withSchema = await startOpenAiCompatibleFake();
  jsonModeOnly = await startOpenAiCompatibleFake({ structuredOutputs: false });
  t = await buildTestApp();
  ({ admin, owner, learner } = await adminOwnerLearner(t.app));
});
afterAll(async () => {
  await t.close();
  await withSchema.close();
  await jsonModeOnly.close();
});

type Body = { response_format?: { type: string; json_schema?: { name: string } }; messages: { role: string; content: string }[] };
const bodyOf = (request: RecordedRequest | undefined) => request?.body as Body;
const systemOf = (request: RecordedRequest | undefined) => bodyOf(request).messages.find((m) => m.role === "system")?.content ?? "";
/** The calls made in JSON mode since `from` (a call before them may be the refused schema's). */
const jsonModeCalls = (fake: FakeProvider, from: number) =>
  fake.requests.slice(from).filter((r) => bodyOf(r).response_format?.type === "json_object");
const prompts = (q: { prompt: string }[]) => q.map((x) => x.prompt);
const proposeOutline = (id: number) => owner.call(courseAiApi.proposeOutline, { params: { id }, body: {} });

/** An OpenAI-compatible platform (the seeded "openai" row, its kind changed) at this server. */
const compatibleAt = (fake: FakeProvider) => pointPlatformAt(admin, "openai", fake, { kind: "openai-compatible" });

describe("an OpenAI-compatible server that takes a JSON schema", () => {
  it("gets the schema by name, and the prompt names the shape too; quiz drafts and the outline come back", async () => {
    await compatibleAt(withSchema);
    const { quizId } = await quizCourse(owner);
    const before = withSchema.requests.length;
    const drafted = await owner.call(quizzesApi.generateQuestions, {
      params: { id: quizId },
      body: { count: 5, kinds: ["single", "short"] },
    });
    expect(drafted.status, drafted.response.body).toBe(200);
    expect(prompts(drafted.data)).toEqual([FAKE_QUESTIONS.questions[0]?.prompt, FAKE_QUESTIONS.questions[3]?.prompt]);
    expect(withSchema.requests.length - before).toBe(1);
    const sent = withSchema.requests.at(-1);
    expect(bodyOf(sent).response_format).toMatchObject({ type: "json_schema", json_schema: { name: "quiz_questions" } });
    expect(systemOf(sent)).toContain('"questions"');
    expect(systemOf(sent)).toContain('"explanation"');

    const course = await owner.ok(coursesApi.create, { body: { title: "Tides" } });
    const outline = await proposeOutline(course.id);
    expect(outline.status, outline.response.body).toBe(200);
    expect(outline.data).toMatchObject({ ...FAKE_OUTLINE, source: "ai" });
    expect(bodyOf(withSchema.requests.at(-1)).response_format?.json_schema?.name).toBe("course_outline");
  });
});

describe("an OpenAI-compatible server in JSON mode only (it refuses a JSON schema)", () => {
  it("is asked again in JSON mode with the shape in the prompt, then in JSON mode from the start", async () => {
    await compatibleAt(jsonModeOnly);
    const { quizId } = await quizCourse(owner);
    const before = jsonModeOnly.requests.length;
    const drafted = await owner.call(quizzesApi.generateQuestions, {
      params: { id: quizId },
      body: { count: 5, kinds: ["multiple", "truefalse"] },
    });
    expect(drafted.status, drafted.response.body).toBe(200);
    expect(prompts(drafted.data)).toEqual([FAKE_QUESTIONS.questions[1]?.prompt, FAKE_QUESTIONS.questions[2]?.prompt]);
    const calls = jsonModeOnly.requests.slice(before);
    expect(calls.map((r) => bodyOf(r).response_format?.type)).toEqual(["json_schema", "json_object"]);
    expect(systemOf(calls[1])).toContain('"questions"');

    // The platform's refusal is remembered: the next structured call goes in JSON mode at once.
    const course = await owner.ok(coursesApi.create, { body: { title: "Estuaries" } });
    const next = jsonModeOnly.requests.length;
    const outline = await proposeOutline(course.id);
    expect(outline.status, outline.response.body).toBe(200);
    expect(outline.data).toMatchObject({ ...FAKE_OUTLINE, source: "ai" });
    expect(jsonModeOnly.requests.slice(next).map((r) => bodyOf(r).response_format?.type)).toEqual(["json_object"]);
  });

  it("an answer wrapped in a Markdown fence after a sentence is repaired, not asked again", async () => {
    await compatibleAt(jsonModeOnly);
    const course = await owner.ok(coursesApi.create, { body: { title: "Rock pools #fenced-json" } });
    const before = jsonModeOnly.requests.length;
    const outline = await proposeOutline(course.id);
    expect(outline.status, outline.response.body).toBe(200);
    expect(outline.data).toMatchObject({ ...FAKE_OUTLINE, source: "ai" });
    expect(jsonModeCalls(jsonModeOnly, before)).toHaveLength(1);
  });

  it("an AI grade that is no JSON is asked again once, then the submit fails and the attempt stays open", async () => {
    await compatibleAt(jsonModeOnly);
    const { quizId } = await quizCourse(owner);
    const rubric = { kind: "short", prompt: "Six times seven?", accepted: ["42"], rubric: "Forty-two in any words", aiGrading: true };
    const [id] = await addQuestions(owner, quizId, [rubric]);
    await publish(owner, quizId, { passMark: 50, attempts: null });
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    const answer = (value: string) => learner.ok(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: id }, body: { value } });
    const submit = () => learner.call(quizzesApi.submit, { params: { id: attempt.id } });
    await answer("forty-two #bad-json");
    const before = jsonModeOnly.requests.length;
    const refused = await submit();
    expect(refused.status).toBe(502);
    expect(jsonModeCalls(jsonModeOnly, before)).toHaveLength(2);

    await answer("forty-two");
    const graded = await submit();
    expect(graded.status, graded.response.body).toBe(200);
    expect(graded.data.results?.[0]).toMatchObject({ correct: true, gradedBy: "ai" });
  });
});
