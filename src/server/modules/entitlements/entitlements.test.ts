import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/app-error.js";
import { entitlements } from "./entitlements.js";

const free = { role: "user", planType: "free" } as const;
const early = { role: "user", planType: "earlyAccess" } as const;
const admin = { role: "admin", planType: "free" } as const;
const platform = { name: "OpenAI", freeModels: ["small"] };

describe("entitlements", () => {
  it("lets a free user use only the free-tier models, with a reason that names the plan", () => {
    expect(entitlements.canUseModel(free, platform, "small")).toBe(true);
    expect(entitlements.canUseModel(free, platform, "large")).toBe(false);
    expect(entitlements.modelLockReason(free, platform, "large")).toMatch(/large needs the Early Access plan/);
    expect(() => entitlements.assertCanUseModel(free, platform, "large")).toThrow(AppError);
  });

  it("lets Early Access users and admins use every model, personalities and course generation", () => {
    for (const who of [early, admin]) {
      expect(entitlements.canUseModel(who, platform, "large")).toBe(true);
      expect(() => entitlements.assertCanUsePersonalities(who)).not.toThrow();
      expect(() => entitlements.assertCanGenerateCourses(who)).not.toThrow();
    }
  });

  it("refuses personalities and course generation to a free user with 403", () => {
    for (const check of [entitlements.assertCanUsePersonalities, entitlements.assertCanGenerateCourses]) {
      expect(() => check(free)).toThrow(
        expect.objectContaining({ constructor: AppError, statusCode: 403, message: expect.stringMatching(/Early Access plan/) }),
      );
    }
  });
});
