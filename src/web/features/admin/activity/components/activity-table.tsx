import { activityLabel } from "../../../../../shared/activity-actions.js";
import { type ActivityLog, activityActor, activityUser } from "../../../../../shared/contracts/activity.js";
import { cn } from "../../../../lib/cn.js";

const th = "px-3 py-2.5 text-left text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase";
/** Shown before a value when the rows are cards (below 1024 px), where the header row is hidden. */
const cardLabel = "mr-1.5 text-muted-foreground lg:hidden";

/** The house's destructive badge, AA in both themes (the destructive red itself is 4:1 on its own tint). */
const DANGER = "border-destructive/40 bg-destructive/10 text-red-700 dark:bg-destructive/15 dark:text-red-300";

const ACTION_TONE: Partial<Record<string, string>> = {
  failed_login: DANGER,
  account_disabled: DANGER,
  user_deleted: DANGER,
  login: "border-primary/30 bg-primary/10 text-foreground",
  register: "border-primary/30 bg-primary/10 text-foreground",
};

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { timeStyle: "medium" });

/** `name@example.com` may break after the name, never inside a word. */
function Email({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/** The account the row is about, read by the one rule the CSV uses too (`activityUser`). */
function UserCell({ log }: { log: ActivityLog }) {
  const { name, note } = activityUser(log);
  const known = log.user !== null || log.deletedUsername !== null || log.attemptedUsername !== null;
  return (
    <>
      <p className={cn("[overflow-wrap:anywhere]", known ? "font-medium" : "text-muted-foreground italic")}>{name}</p>
      {log.user?.name ? <p className="text-xs text-muted-foreground">{log.user.name}</p> : null}
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </>
  );
}

/** Who did it, when not the account itself: an admin, or the server ("System"). */
function ActorLine({ log }: { log: ActivityLog }) {
  const actor = activityActor(log);
  if (!actor) return null;
  return (
    <p className="mt-1 text-xs text-muted-foreground lg:whitespace-nowrap" data-testid="activity-actor">
      by <span className={cn("font-medium text-foreground", actor.note && "italic")}>{actor.name}</span>
      {actor.note ? ` (${actor.note.toLowerCase()})` : null}
    </p>
  );
}

/** The log: User, Email, Action, Date/Time, IP Address, User Agent. Below 1024 px each row is a card. */
export function ActivityTable({ logs }: { logs: ActivityLog[] }) {
  return (
    <div className="overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm">
      <table className="w-full text-sm">
        <thead className="border-b bg-muted/40 max-lg:sr-only">
          <tr>
            <th scope="col" className={`${th} pl-4`}>
              User
            </th>
            <th scope="col" className={th}>
              Email
            </th>
            <th scope="col" className={th}>
              Action
            </th>
            <th scope="col" className={th}>
              Date/Time
            </th>
            <th scope="col" className={th}>
              IP Address
            </th>
            <th scope="col" className={`${th} pr-4`}>
              User Agent
            </th>
          </tr>
        </thead>
        <tbody>
          {logs.map((log) => (
            <tr
              key={log.id}
              className="border-b align-top last:border-0 max-lg:grid max-lg:grid-cols-[minmax(0,1fr)_auto] max-lg:gap-x-3 max-lg:gap-y-1 max-lg:p-3"
            >
              <td className="py-3 pr-3 pl-4 max-lg:p-0">
                <UserCell log={log} />
              </td>
              <td className="px-3 py-3 text-muted-foreground [overflow-wrap:anywhere] max-lg:col-span-2 max-lg:p-0 max-lg:text-xs">
                <span className={cardLabel}>Email</span>
                {log.user?.email ? <Email email={log.user.email} /> : "—"}
              </td>
              <td className="px-3 py-3 max-lg:col-start-2 max-lg:row-start-1 max-lg:p-0">
                <span
                  className={cn(
                    "inline-flex rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
                    ACTION_TONE[log.action] ?? "bg-muted text-foreground",
                  )}
                >
                  {activityLabel(log.action)}
                </span>
                <ActorLine log={log} />
              </td>
              <td className="px-3 py-3 whitespace-nowrap max-lg:col-span-2 max-lg:p-0 max-lg:text-xs">
                <span className={cardLabel}>Date/Time</span>
                <time dateTime={log.createdAt} title={new Date(log.createdAt).toString()}>
                  <span className="lg:block">{day(log.createdAt)}</span>
                  <span className="text-muted-foreground max-lg:ml-1.5 lg:block lg:text-xs">{time(log.createdAt)}</span>
                </time>
              </td>
              <td className="px-3 py-3 font-mono text-xs whitespace-nowrap max-lg:col-span-2 max-lg:p-0">
                <span className={cn(cardLabel, "font-sans")}>IP Address</span>
                {log.ipAddress ?? "—"}
              </td>
              <td className="py-3 pr-4 pl-3 text-xs text-muted-foreground max-lg:col-span-2 max-lg:p-0">
                <span className={cardLabel}>User Agent</span>
                <span className="line-clamp-2 break-all lg:max-w-[13rem]" title={log.userAgent ?? undefined}>
                  {log.userAgent ?? "—"}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
