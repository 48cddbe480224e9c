import type { SessionStore } from "./session-store.js";

/**
 * After a write to what a session carries (name, email, avatar, plan, role): the cached sessions of that
 * user are dropped on every instance (through Redis), so the next request reads the row again.
 * Every service that writes a user row calls this; routes never do.
 */
export async function userChanged(sessions: SessionStore, userId: number): Promise<void> {
  await sessions.forgetUser(userId);
}
