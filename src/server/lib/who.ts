/**
 * The signed-in person a service acts for: every service takes `{ db, who, ... }`, and ownership goes into
 * its queries (`where owner = who.id`). Set by the session plugin from the session cache, never from input.
 */
export type Who = {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
  role: "user" | "admin";
  planType: "free" | "earlyAccess";
  avatarUrl: string | null;
  createdAt: Date;
};
