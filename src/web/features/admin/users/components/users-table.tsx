import type { AdminUser } from "../../../../../shared/contracts/admin-users.js";
import { type UserAction, UserActions } from "./user-actions.js";
import { PlanBadge, RoleBadge, StatusBadge } from "./user-badges.js";
import { formatJoined } from "./user-format.js";
import { UserIdentity } from "./user-identity.js";
import { MessagesToday, TokensThisMonth } from "./user-plan-usage.js";

type Props = { users: AdminUser[]; selfId: number | null; onAction: (action: UserAction) => void };

/** Wide screens: a table. */
function Table({ users, selfId, onAction }: Props) {
  const head = "px-3 py-3 text-left text-xs font-medium tracking-wide text-muted-foreground uppercase";
  return (
    <table className="w-full min-w-[60rem] text-sm">
      <thead className="border-b bg-muted/40">
        <tr>
          <th scope="col" className={head}>
            User
          </th>
          <th scope="col" className={head}>
            Role
          </th>
          <th scope="col" className={head}>
            Plan
          </th>
          <th scope="col" className={head}>
            Status
          </th>
          <th scope="col" className={head}>
            Tokens this month
          </th>
          <th scope="col" className={head}>
            Messages today
          </th>
          <th scope="col" className={head}>
            Joined
          </th>
          <th scope="col" className={`${head} text-right`}>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id} aria-label={user.username} className="border-b last:border-0 hover:bg-muted/30">
            <td className="max-w-72 px-3 py-3">
              <UserIdentity user={user} isSelf={user.id === selfId} />
            </td>
            <td className="px-3 py-3">
              <RoleBadge role={user.role} />
            </td>
            <td className="px-3 py-3">
              <PlanBadge planType={user.planType} />
            </td>
            <td className="px-3 py-3">
              <StatusBadge status={user.status} />
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted-foreground">
              <TokensThisMonth user={user} />
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted-foreground">
              <MessagesToday user={user} />
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted-foreground">{formatJoined(user.createdAt)}</td>
            <td className="px-2 py-2">
              <UserActions user={user} isSelf={user.id === selfId} onAction={onAction} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Narrow screens: one card per user. */
function Cards({ users, selfId, onAction }: Props) {
  return (
    <ul className="divide-y">
      {users.map((user) => (
        <li key={user.id} aria-label={user.username} className="grid grid-cols-1 gap-3 p-4">
          <div className="flex min-w-0 items-start justify-between gap-2">
            <UserIdentity user={user} isSelf={user.id === selfId} stacked />
            <UserActions user={user} isSelf={user.id === selfId} onAction={onAction} />
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            <RoleBadge role={user.role} />
            <PlanBadge planType={user.planType} />
            <StatusBadge status={user.status} />
          </div>
          <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <span>
              Tokens this month: <TokensThisMonth user={user} />
            </span>
            <span>
              Messages today: <MessagesToday user={user} />
            </span>
            <span>Joined {formatJoined(user.createdAt)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The users of the loaded pages: a table from 1024 px (the admin menu beside it), cards below. */
export function UsersTable(props: Props) {
  return (
    <>
      <div className="hidden overflow-x-auto lg:block">
        <Table {...props} />
      </div>
      <div className="lg:hidden">
        <Cards {...props} />
      </div>
    </>
  );
}
