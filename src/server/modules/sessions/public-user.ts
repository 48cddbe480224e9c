import type { PublicUser } from "../../../shared/contracts/user.js";
import { users } from "../../db/schema/index.js";
import type { Who } from "../../lib/who.js";

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

export function toPublicUser(user: Who): PublicUser {
  return { ...user, createdAt: user.createdAt.toISOString() };
}
