import { describe, expect, it } from "vitest";
import { NEIGHBOUR_CHARS, neighbourAfter, neighbourBefore, passageInContext } from "./passage-context.js";

const piece = (content: string, page: number | null = null) => ({ content, page });

describe("passageInContext", () => {
  it("gives a searched piece whole, and its neighbours without the words it shares with them", () => {
    // The chunker starts each piece with the last sentence of the one before.
    const shown = passageInContext({
      pieces: [piece("Two is blue. Three is green. Four is red.")],
      joined: false,
      before: piece("One is pink. Two is blue."),
      after: piece("Four is red. Five is grey."),
    });
    expect(shown).toEqual({
      passage: "Two is blue. Three is green. Four is red.",
      before: "One is pink.",
      after: "Five is grey.",
      beforePage: null,
      afterPage: null,
    });
  });

  it("gives a whole document's part as the model read it: its pieces without their overlap", () => {
    const shown = passageInContext({
      pieces: [piece("A one. A two.", 3), piece("A two. A three.", 3)],
      joined: true,
      before: piece("Z last.", 2),
      after: piece("B one.", 4),
    });
    expect(shown).toEqual({ passage: "A one. A two.\n\nA three.", before: "Z last.", after: "B one.", beforePage: 2, afterPage: 4 });
  });

  it("cuts long neighbours away from the passage, never the passage", () => {
    const long = "word ".repeat(400).trim();
    const shown = passageInContext({ pieces: [piece(long)], joined: false, before: piece(`start ${long}x`), after: piece(`x${long} end`) });
    expect(shown.passage).toBe(long);
    expect(shown.before.startsWith("…")).toBe(true);
    expect(shown.before.endsWith("wordx")).toBe(true);
    expect(shown.after.startsWith("xword")).toBe(true);
    expect(shown.after.endsWith("…")).toBe(true);
  });

  it("cuts a neighbour between two words: the text before starts at a word, the text after ends at one", () => {
    // Words of 7 letters and a space: a cut 600 characters from the passage falls inside a word.
    const words = Array.from({ length: 200 }, (_, i) => `w${String(i).padStart(3, "0")}abc`);
    const text = words.join(" ");
    expect(text.charAt(text.length - NEIGHBOUR_CHARS - 1)).not.toBe(" ");
    expect(text.charAt(NEIGHBOUR_CHARS)).not.toBe(" ");
    const shown = passageInContext({ pieces: [piece("The passage.")], joined: false, before: piece(text), after: piece(text) });
    const before = shown.before.slice(1).split(" ");
    const after = shown.after.slice(0, -1).split(" ");
    expect(shown.before.startsWith("…w")).toBe(true);
    expect(shown.after.endsWith("abc…")).toBe(true);
    // Every word shown is whole, and none is left out between the cut and the passage.
    for (const word of [...before, ...after]) expect(words).toContain(word);
    expect(before.at(-1)).toBe(words.at(-1));
    expect(after[0]).toBe(words[0]);
    expect(shown.before.length).toBeLessThanOrEqual(NEIGHBOUR_CHARS + 1);
    expect(shown.after.length).toBeLessThanOrEqual(NEIGHBOUR_CHARS + 1);
    expect(shown.before.length).toBeGreaterThan(NEIGHBOUR_CHARS - 8);
    expect(shown.after.length).toBeGreaterThan(NEIGHBOUR_CHARS - 8);
  });

  it("keeps a cut that already falls between words, and cuts inside a word only when it is longer than half the room", () => {
    expect(neighbourBefore("alpha beta gamma", 10)).toBe("…beta gamma");
    expect(neighbourBefore("alpha beta gamma", 9)).toBe("…gamma");
    expect(neighbourBefore("alpha beta gamma", 11)).toBe("…beta gamma");
    expect(neighbourAfter("alpha beta gamma", 10)).toBe("alpha beta…");
    expect(neighbourAfter("alpha beta gamma", 8)).toBe("alpha…");
    expect(neighbourAfter("alpha beta", 20)).toBe("alpha beta");
    // A link longer than half of the room: cut inside it rather than shown as nothing.
    const link = `https://example.org/${"a".repeat(40)}`;
    expect(neighbourAfter(`${link} end`, 20)).toBe(`${link.slice(0, 20)}…`);
    expect(neighbourBefore(`start ${link}`, 20)).toBe(`…${link.slice(-20)}`);
    // Line breaks count as a space between words, and never lead or end what is shown.
    expect(neighbourAfter("one two\nthree four", 11)).toBe("one two…");
    expect(neighbourBefore("one two\nthree four", 13)).toBe("…three four");
  });
});
