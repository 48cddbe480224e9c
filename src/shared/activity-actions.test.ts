import { describe, expect, it } from "vitest";
import { activityLabel } from "./activity-actions.js";

describe("activityLabel", () => {
  it("uses the product's labels, and title-cases the rest", () => {
    expect(activityLabel("login")).toBe("Login");
    expect(activityLabel("logout")).toBe("Logout");
    expect(activityLabel("failed_login")).toBe("Failed Login Attempt");
    expect(activityLabel("password_change")).toBe("Password Change");
    expect(activityLabel("account_disabled")).toBe("Account Disabled");
  });
});
