/** A unique index refused the write (PostgreSQL 23505), as both drivers report it. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** A foreign key refused the write (PostgreSQL 23503): the row it names is gone. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === "23503" || e?.cause?.code === "23503";
}

/** A reply's start refused after its claim (`start_reply`, SQLSTATE RS000): its verdict, else null. */
export function startRefusal(error: unknown): string | null {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  if (e?.code === "RS000") return e.message ?? null;
  if (e?.cause?.code === "RS000") return e.cause.message ?? null;
  return null;
}
