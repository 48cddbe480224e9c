/** The name people see: the full name, or the username when there is none. */
export function displayName(user: { name?: string | null; username: string } | null | undefined): string {
  return user?.name?.trim() || user?.username || "there";
}
