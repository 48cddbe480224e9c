import { describe, expect, it } from "vitest";
import { keyHint } from "./key-hint.js";

describe("a saved key's hint", () => {
  it("shows the key's kind and its last 4 characters, never more", () => {
    expect(keyHint("sk-live-SECRET-abcdefghijkl-9Z7q")).toBe("sk-...9Z7q");
    expect(keyHint("sk-ant-api03-abcdefghijklmnop")).toBe("sk-...mnop");
    expect(keyHint("sk_test_51Abcdefghijkl9XyZ")).toBe("sk_test_...9XyZ");
    expect(keyHint("pk_live_51Abcdefghijkl7AbC")).toBe("pk_live_...7AbC");
    expect(keyHint("whsec_abcdefghijkl4QrS")).toBe("whsec_...4QrS");
    // A key whose first letters run to an underscore is not taken for a kind: only 3 characters show.
    expect(keyHint("abcdefghijklmnop_qrstuvwxyz")).toBe("abc...wxyz");
  });

  it("shows nothing of a key of 8 characters or fewer", () => {
    expect(keyHint("sk_12345")).toBe("...");
    expect(keyHint("short")).toBe("...");
  });
});
