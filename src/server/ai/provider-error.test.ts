import { APICallError as ProviderApiCallError } from "@ai-sdk/provider";
import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { isRetryError } from "./provider-error.js";

describe("isRetryError (the AI SDK's marker, without loading `ai`)", () => {
  it("knows the SDK's RetryError, and nothing else", () => {
    const last = new APICallError({ message: "busy", url: "http://x", requestBodyValues: {}, statusCode: 429 });
    const retry = new RetryError({ message: "gave up", reason: "maxRetriesExceeded", errors: [last] });
    expect(isRetryError(retry)).toBe(true);
    expect(isRetryError(last)).toBe(false);
    expect(isRetryError(new Error("AI_RetryError"))).toBe(false);
    expect(isRetryError(null)).toBe(false);
    // The provider package's APICallError is the one `ai` re-exports.
    expect(ProviderApiCallError.isInstance(last)).toBe(true);
  });
});
