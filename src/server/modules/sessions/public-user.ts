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

/** What each cached `Who` shows, made once: most reads answer from the session cache's same object (issue 15). */
const shown = new WeakMap<Who, PublicUser>();

/** Named field by field: only these leave, whatever else a `Who` may carry one day. Frozen, as it is shared. */
export function toPublicUser(user: Who): PublicUser {
  let publicUser = shown.get(user);
  if (!publicUser) {
    publicUser = Object.freeze({
      id: user.id,
      username: user.username,
      name: user.name,
      email: user.email,
      role: user.role,
      planType: user.planType,
      avatarUrl: user.avatarUrl,
      createdAt: user.createdAt.toISOString(),
    });
    shown.set(user, publicUser);
  }
  return publicUser;
}
