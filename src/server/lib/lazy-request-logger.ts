import type { FastifyBaseLogger } from "fastify";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

/** pino's own check where the logger has it; any other logger is asked to write. */
const enabled = (logger: FastifyBaseLogger, level: string) =>
  (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? true;

/**
 * Fastify gives every request a child logger bound to its id. With the redaction paths of log-redaction.ts,
 * pino builds that child through the wildcard redactor on every request, a few percent of a read's CPU
 * (issue 15, bench/auth-read). Most requests log nothing, so the child is made on the first line written
 * at an enabled level, with the same bindings; a line at a disabled level makes nothing.
 */
type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildOptions = Parameters<FastifyBaseLogger["child"]>[1];

export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
  if (options && Object.keys(options).length > 0) return logger.child(bindings, options);
  let real: FastifyBaseLogger | undefined;
  const child = (): FastifyBaseLogger => {
    real ??= logger.child(bindings);
    return real;
  };
  const lazy = {
    get level() {
      return real?.level ?? logger.level;
    },
    set level(value: string) {
      child().level = value;
    },
    silent: () => {},
    child: (more: Bindings, moreOptions?: ChildOptions) => child().child(more, moreOptions),
  } as Record<string, unknown>;
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (!real && !enabled(logger, level)) return;
      (child()[level] as (...line: unknown[]) => void)(...args);
    };
  }
  return lazy as unknown as FastifyBaseLogger;
}
