import { Download, Search, X } from "lucide-react";
import { ACTIVITY_ACTIONS, activityLabel } from "../../../../../shared/activity-actions.js";
import { ACTIVITY_DATE_LABELS, ACTIVITY_DATE_RANGES, ACTIVITY_SEARCH_MAX } from "../../../../../shared/contracts/activity.js";
import { Button } from "../../../../components/ui/button.js";
import { Input } from "../../../../components/ui/input.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../components/ui/select.js";
import { Spinner } from "../../../../components/ui/spinner.js";

export type ActivityFilterState = { search: string; action: string; date: string };
const ALL = "all";

/** "UTC+02:00" for the browser's zone: the date filter counts days there. */
function zoneLabel(): string {
  const minutes = -new Date().getTimezoneOffset();
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `UTC${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Search (debounced by the page), action, date range and the CSV export of the same filters. */
export function ActivityFilters({
  value,
  onChange,
  exportUrl,
  busy,
}: {
  value: ActivityFilterState;
  onChange: (next: ActivityFilterState) => void;
  exportUrl: string;
  busy: boolean;
}) {
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-0 flex-[1_1_16rem]">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label="Search activity"
            placeholder="Search user, email, name or IP"
            maxLength={ACTIVITY_SEARCH_MAX}
            className="pr-9 pl-9"
            value={value.search}
            onChange={(event) => onChange({ ...value, search: event.target.value })}
          />
          {value.search ? (
            <button
              type="button"
              aria-label="Clear search"
              className="absolute top-1/2 right-2 -translate-y-1/2 rounded-sm p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              onClick={() => onChange({ ...value, search: "" })}
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          ) : null}
        </div>
        <Select value={value.action || ALL} onValueChange={(action) => onChange({ ...value, action: action === ALL ? "" : action })}>
          <SelectTrigger aria-label="Action" className="w-auto min-w-[11rem] flex-[1_1_11rem] sm:flex-none">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All actions</SelectItem>
            {ACTIVITY_ACTIONS.map((action) => (
              <SelectItem key={action} value={action}>
                {activityLabel(action)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={value.date || ALL} onValueChange={(date) => onChange({ ...value, date: date === ALL ? "" : date })}>
          <SelectTrigger aria-label="Date" className="w-auto min-w-[9rem] flex-[1_1_9rem] sm:flex-none">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All time</SelectItem>
            {ACTIVITY_DATE_RANGES.map((range) => (
              <SelectItem key={range} value={range}>
                {ACTIVITY_DATE_LABELS[range]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button asChild variant="outline" className="flex-[1_1_9rem] sm:flex-none">
          <a href={exportUrl} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>
      <p className="flex items-center gap-2 text-xs text-muted-foreground">
        {busy ? <Spinner className="size-3.5" label="Updating..." /> : null}
        Dates and times are in your time zone ({zoneLabel()}). The export has every matching row, not only the ones shown.
      </p>
    </div>
  );
}
