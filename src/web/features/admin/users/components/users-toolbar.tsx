import { Loader2, Search } from "lucide-react";
import { USER_STATUSES, type UserStatus } from "../../../../../shared/contracts/admin-users.js";
import { Input } from "../../../../components/ui/input.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../components/ui/select.js";
import { STATUS_LABELS } from "./user-format.js";

const ALL = "all";

/** The search box (debounced by the page) and the status filter (All, Active, Inactive), both applied by the server. */
export function UsersToolbar({
  search,
  onSearch,
  status,
  onStatus,
  searching,
}: {
  search: string;
  onSearch: (value: string) => void;
  status: UserStatus | "";
  onStatus: (value: UserStatus | "") => void;
  searching: boolean;
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <div className="relative flex-1">
        {searching ? (
          <Loader2
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
          />
        ) : (
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
        )}
        <Input
          type="search"
          aria-label="Search users"
          aria-busy={searching}
          placeholder="Username, email or name"
          className="pl-9"
          maxLength={100}
          value={search}
          onChange={(event) => onSearch(event.currentTarget.value)}
        />
      </div>
      <Select value={status || ALL} onValueChange={(value) => onStatus(value === ALL ? "" : (value as UserStatus))}>
        <SelectTrigger aria-label="Filter by status" className="sm:w-44">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All statuses</SelectItem>
          {USER_STATUSES.map((value) => (
            <SelectItem key={value} value={value}>
              {STATUS_LABELS[value]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
