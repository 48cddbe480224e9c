import type { PublicUser } from "../../../shared/contracts/user.js";
import { users } from "../../db/schema/index.js";

/** The columns of a user that may leave the server (never the password hash). */
export const sessionUserColumns = {
  id: users.id,
  username: users.username,
  name: users.name,
  email: users.email,
  role: users.role,
  planType: users.planType,
  avatarUrl: users.avatarUrl,
  createdAt: users.createdAt,
};

export type SessionUser = {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
  role: "user" | "admin";
  planType: "free" | "earlyAccess";
  avatarUrl: string | null;
  createdAt: Date;
};

export function toPublicUser(user: SessionUser): PublicUser {
  return { ...user, createdAt: user.createdAt.toISOString() };
}
