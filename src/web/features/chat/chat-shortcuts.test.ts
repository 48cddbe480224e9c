import { describe, expect, it } from "vitest";
import { CHAT_SHORTCUTS, isApplePlatform, type KeyPress, matchShortcut, shortcutKeys } from "./chat-shortcuts.js";

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  code: /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : "",
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...extra,
});

describe("matchShortcut", () => {
  it("reads Ctrl elsewhere and ⌘ on Apple", () => {
    expect(matchShortcut(press("O", { ctrlKey: true, shiftKey: true }), false)).toBe("newChat");
    expect(matchShortcut(press("O", { metaKey: true, shiftKey: true }), true)).toBe("newChat");
    // The other platform's modifier is not a shortcut.
    expect(matchShortcut(press("O", { metaKey: true, shiftKey: true }), false)).toBeNull();
    expect(matchShortcut(press("O", { ctrlKey: true, shiftKey: true }), true)).toBeNull();
    expect(matchShortcut(press("k", { ctrlKey: true }), false)).toBe("searchChats");
    expect(matchShortcut(press("K", { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    expect(matchShortcut(press("E", { ctrlKey: true, shiftKey: true }), false)).toBe("regenerate");
    expect(matchShortcut(press("C", { ctrlKey: true, shiftKey: true }), false)).toBe("copyReply");
    expect(matchShortcut(press("S", { ctrlKey: true, shiftKey: true }), false)).toBe("toggleHistory");
  });

  it("never takes plain letters, Ctrl+C, AltGr, or the browser's hard reload", () => {
    expect(matchShortcut(press("o"), false)).toBeNull();
    expect(matchShortcut(press("c", { ctrlKey: true }), false)).toBeNull();
    expect(matchShortcut(press("R", { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    // AltGr is Ctrl+Alt on Windows: typing an @ or € stays typing.
    expect(matchShortcut(press("k", { ctrlKey: true, altKey: true }), false)).toBeNull();
  });

  it("reads Escape, Shift+Escape and ?", () => {
    expect(matchShortcut(press("Escape"), false)).toBe("stop");
    expect(matchShortcut(press("Escape", { shiftKey: true }), false)).toBe("focusComposer");
    expect(matchShortcut(press("?", { shiftKey: true }), false)).toBe("help");
    expect(matchShortcut(press("?", { ctrlKey: true, shiftKey: true }), false)).toBeNull();
  });

  it("follows the physical key on a non-Latin layout", () => {
    expect(matchShortcut({ ...press("щ", { ctrlKey: true, shiftKey: true }), code: "KeyO" }, false)).toBe("newChat");
  });
});

describe("shortcutKeys and isApplePlatform", () => {
  const newChat = CHAT_SHORTCUTS.find((s) => s.id === "newChat")!;
  it("shows the platform's symbols", () => {
    expect(shortcutKeys(newChat, true)).toEqual(["⌘", "⇧", "O"]);
    expect(shortcutKeys(newChat, false)).toEqual(["Ctrl", "Shift", "O"]);
    expect(shortcutKeys(CHAT_SHORTCUTS.find((s) => s.id === "stop")!, false)).toEqual(["Esc"]);
  });
  it("knows an Apple device from the platform", () => {
    expect(isApplePlatform({ platform: "MacIntel" })).toBe(true);
    expect(isApplePlatform({ userAgentData: { platform: "macOS" } })).toBe(true);
    expect(isApplePlatform({ platform: "iPad" })).toBe(true);
    expect(isApplePlatform({ platform: "Linux x86_64" })).toBe(false);
    expect(isApplePlatform({ userAgentData: { platform: "Windows" }, platform: "Win32" })).toBe(false);
  });
});
