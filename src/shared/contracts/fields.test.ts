import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CONFIRM_PASSWORD,
  confirmed,
  confirmPasswordField,
  EMAIL_INVALID,
  emailField,
  hintsField,
  longTitleField,
  NO_HINTS,
  nameField,
  newPasswordField,
  optionalEmailField,
  optionalNameField,
  optionalNewPasswordField,
  PASSWORDS_DO_NOT_MATCH,
  PASSWORDS_DONT_MATCH,
  requiredText,
  strongPasswordField,
  titleField,
} from "./fields.js";

/** The first message a schema gives for a value, or "ok". */
function verdict(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? "ok" : (result.error.issues[0]?.message ?? "?");
}

describe("emailField", () => {
  it("trims and lower-cases what was typed", () => {
    expect(emailField.parse("  MixedCase@Example.COM ")).toBe("mixedcase@example.com");
    expect(emailField.parse("already@lower.case")).toBe("already@lower.case");
  });

  it.each([["not-an-email"], ["a@b"], [""], ["   "], [`${"a".repeat(250)}@example.com`], [42], [null]])(
    "refuses %j with the product's words",
    (value) => {
      expect(verdict(emailField, value)).toBe(EMAIL_INVALID);
    },
  );

  it("keeps its type: what the form holds and what the server receives are both text", () => {
    const form = z.object({ email: emailField });
    const typed: z.input<typeof form> = { email: "A@B.co" };
    const sent: z.output<typeof form> = form.parse(typed);
    expect(sent).toEqual({ email: "a@b.co" });
  });
});

describe("optionalEmailField", () => {
  const profile = optionalEmailField("Please enter a valid email");
  it("lower-cases an address and keeps empty as empty", () => {
    expect(profile.parse(" Someone@Example.com ")).toBe("someone@example.com");
    expect(profile.parse("   ")).toBe("");
  });
  it("refuses anything else with the caller's words", () => {
    expect(verdict(profile, "nope")).toBe("Please enter a valid email");
    expect(verdict(optionalEmailField(EMAIL_INVALID), "a@b")).toBe(EMAIL_INVALID);
  });
});

describe("names and titles", () => {
  it.each([
    [nameField, " Ada ", "ok"],
    [nameField, "A", "Name must be at least 2 characters"],
    [nameField, "A".repeat(101), "Name cannot exceed 100 characters"],
    [nameField, undefined, "Name is required"],
    [optionalNameField, "", "ok"],
    [optionalNameField, " A ", "Name must be at least 2 characters"],
    [optionalNameField, "A".repeat(101), "Name cannot exceed 100 characters"],
    [titleField, "   ", "Title is required"],
    [titleField, null, "Title is required"],
    [titleField, "x".repeat(201), "Title cannot exceed 200 characters"],
    [longTitleField, " ab ", "Title must be at least 3 characters"],
    [longTitleField, 12, "Title must be at least 3 characters"],
    [requiredText("Full name", 100), "", "Full name is required"],
    [requiredText("Name", 80), "x".repeat(81), "Name cannot exceed 80 characters"],
  ] as const)("%#: %j gives %j", (schema, value, expected) => {
    expect(verdict(schema, value)).toBe(expected);
  });
});

describe("passwords", () => {
  it.each([
    ["Str0ng!pass", "ok"],
    ["Sh0rt!", "Password must be at least 8 characters"],
    ["lower0!case", "Password must contain at least one uppercase letter"],
    ["UPPER0!CASE", "Password must contain at least one lowercase letter"],
    ["NoDigits!here", "Password must contain at least one number"],
    ["NoSpecial1here", "Password must contain at least one special character"],
    [`Aa1!${"x".repeat(197)}`, "Password cannot exceed 200 characters"],
  ])("the registration's rules: %j gives %j", (value, expected) => {
    expect(verdict(strongPasswordField, value)).toBe(expected);
  });

  it("a change and the admin's form follow the same rule, saying the product's 6 under 6 characters (decision 030)", () => {
    expect(verdict(newPasswordField, "abcdef")).toBe("Password must be at least 8 characters");
    expect(verdict(newPasswordField, "abcde")).toBe("Password must be at least 6 characters");
    expect(verdict(newPasswordField, "")).toBe("Password must be at least 6 characters");
    expect(verdict(newPasswordField, "abcdefgh")).toBe("Password must contain at least one uppercase letter");
    expect(verdict(newPasswordField, "Str0ng!pass")).toBe("ok");
    expect(verdict(newPasswordField, `Aa1!${"x".repeat(197)}`)).toBe("Password cannot exceed 200 characters");
  });

  it("the admin's Edit User form: blank keeps the password, anything else follows the rule", () => {
    expect(verdict(optionalNewPasswordField, "")).toBe("ok");
    expect(verdict(optionalNewPasswordField, "abc")).toBe("Password must be at least 6 characters");
    expect(verdict(optionalNewPasswordField, "abcdef")).toBe("Password must be at least 8 characters");
    expect(verdict(optionalNewPasswordField, "Str0ng!pass")).toBe("ok");
  });

  it("never trims a password", () => {
    expect(strongPasswordField.parse(" Str0ng!pass ")).toBe(" Str0ng!pass ");
  });
});

describe("confirmed", () => {
  const form = confirmed(z.object({ password: strongPasswordField, confirmPassword: confirmPasswordField }));

  it("accepts a confirmation equal to the password", () => {
    expect(form.safeParse({ password: "Str0ng!pass", confirmPassword: "Str0ng!pass" }).success).toBe(true);
  });

  it("refuses another one with 'Passwords do not match' under confirmPassword", () => {
    const result = form.safeParse({ password: "Str0ng!pass", confirmPassword: "Str0ng!pasS" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toMatchObject([{ path: ["confirmPassword"], message: PASSWORDS_DO_NOT_MATCH }]);
  });

  it("a missing confirmation asks for it", () => {
    expect(verdict(form, { password: "Str0ng!pass" })).toBe(CONFIRM_PASSWORD);
  });

  it("checks the field it is told, with the words it is told (the password change)", () => {
    const change = confirmed(z.object({ newPassword: newPasswordField, confirmPassword: z.string() }), {
      password: "newPassword",
      message: PASSWORDS_DONT_MATCH,
    });
    expect(change.safeParse({ newPassword: "Str0ng!pass", confirmPassword: "Str0ng!pass" }).success).toBe(true);
    const result = change.safeParse({ newPassword: "Str0ng!pass", confirmPassword: "Str0ng!pasS" });
    expect(result.error?.issues).toMatchObject([{ path: ["confirmPassword"], message: "Passwords don't match" }]);
  });
});

describe("hintsField", () => {
  it("none sent is no hints, and each call gets its own copy", () => {
    const first = hintsField.parse(undefined);
    expect(first).toEqual(NO_HINTS);
    first.audience = "changed";
    expect(hintsField.parse(undefined)).toEqual({ audience: "", level: "all-levels", goals: "", notes: "" });
  });

  it("fills what is missing and checks the level", () => {
    expect(hintsField.parse({ audience: " managers " })).toEqual({ ...NO_HINTS, audience: "managers" });
    expect(hintsField.safeParse({ level: "expert" }).success).toBe(false);
  });
});
