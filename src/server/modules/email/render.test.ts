import { describe, expect, it } from "vitest";
import { placeholdersOf, renderHtml, renderSubject, renderText } from "./render.js";

describe("email templates", () => {
  it("fills placeholders, escapes them in HTML, and leaves missing ones empty", () => {
    const data = { name: '<script>alert("x")</script> & Co', platformName: "Lumora" };
    expect(renderText("Hi {{name}}, welcome to {{ platformName }}!{{missing}}", data)).toBe(
      'Hi <script>alert("x")</script> & Co, welcome to Lumora!',
    );
    expect(renderHtml("<p>Hi {{name}}</p>", data)).toBe("<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</p>");
  });

  it("cannot reach what it was not given: no prototype, no paths, no expressions", () => {
    const data = { user: { password: "secret" } };
    expect(renderText("{{constructor}}{{toString}}{{hasOwnProperty}}", data)).toBe("");
    expect(renderText("{{__proto__}}", data)).toBe("{{__proto__}}");
    expect(renderText("{{user.password}}{{ 1 + 1 }}{{user}}", data)).toBe("{{user.password}}{{ 1 + 1 }}");
  });

  it("keeps a subject on one line and lists the placeholders", () => {
    expect(renderSubject("Hello {{name}}", { name: "a\r\nBcc: evil@example.com" })).toBe("Hello a Bcc: evil@example.com");
    expect(placeholdersOf("{{a}} {{ b }}", "{{a}}{{c}}")).toEqual(["a", "b", "c"]);
  });
});
