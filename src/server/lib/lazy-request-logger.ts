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

/**
 * One small object per request, its methods on the prototype: a request that logs nothing allocates no
 * closures either (about 1.5% of a read's CPU when they were made per request).
 */
class LazyChild {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  private made(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings);
    return this.real;
  }

  private write(level: (typeof LEVELS)[number], args: unknown[]): void {
    if (!this.real && !enabled(this.parent, level)) return;
    (this.made()[level] as (...line: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.made().level = value;
  }
  silent(): void {}
  child(more: Bindings, moreOptions?: ChildOptions): FastifyBaseLogger {
    return this.made().child(more, moreOptions);
  }
  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.write("error", args);
  }
  warn(...args: unknown[]): void {
    this.write("warn", args);
  }
  info(...args: unknown[]): void {
    this.write("info", args);
  }
  debug(...args: unknown[]): void {
    this.write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.write("trace", args);
  }
}

export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
  if (options && Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyChild(logger, bindings) as unknown as FastifyBaseLogger;
}
