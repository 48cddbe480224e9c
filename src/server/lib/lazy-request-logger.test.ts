import pino from "pino";
import { describe, expect, it } from "vitest";
import { lazyRequestLogger } from "./lazy-request-logger.js";

function parentLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level, redact: { paths: ["*.password"], censor: "[redacted]" } },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((bindings: Record<string, unknown>, options?: Record<string, unknown>) => {
    children++;
    return child(bindings, options);
  }) as typeof logger.child;
  return { logger, lines, children: () => children };
}

describe("lazyRequestLogger", () => {
  it("makes the request's child on its first line, with the request's bindings and the parent's redaction", () => {
    const { logger, lines, children } = parentLogger("info");
    const log = lazyRequestLogger(logger, { reqId: "req-7" });
    expect(children()).toBe(0);
    log.error({ user: { password: "hunter2" } }, "failed");
    log.warn("again");
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ["req-7", "failed"],
      ["req-7", "again"],
    ]);
    expect(lines[0]?.user).toEqual({ password: "[redacted]" });
  });

  it("makes nothing for a line below the level, and reads the parent's level until then", () => {
    const { logger, lines, children } = parentLogger("warn");
    const log = lazyRequestLogger(logger, { reqId: "req-8" });
    log.info("not written");
    log.debug("not written");
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    expect(log.level).toBe("warn");
  });

  it("passes child options through to a real child at once", () => {
    const { logger, children } = parentLogger("info");
    lazyRequestLogger(logger, { reqId: "req-9" }, { level: "debug" });
    expect(children()).toBe(1);
  });
});
