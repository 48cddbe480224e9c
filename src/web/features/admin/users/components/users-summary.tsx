import { useQuery } from "@tanstack/react-query";
import { Card } from "../../../../components/ui/card.js";
import { adminUserSummaryQuery } from "../api.js";

const number = new Intl.NumberFormat("en-US");

/** Totals counted once when the page opens (and after a change), not on every search. */
export function UsersSummary() {
  const summary = useQuery(adminUserSummaryQuery);
  if (summary.isError) return null;
  const tiles = [
    { label: "Total users", value: summary.data?.total },
    { label: "Active", value: summary.data?.active },
    { label: "Inactive", value: summary.data?.inactive },
    { label: "Admins", value: summary.data?.admins },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-busy={summary.isPending}>
      {tiles.map((tile) => (
        <Card key={tile.label} className="px-4 py-3">
          <dt className="text-xs font-medium text-muted-foreground">{tile.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums">
            {tile.value === undefined ? <span className="text-muted-foreground">–</span> : number.format(tile.value)}
          </dd>
        </Card>
      ))}
    </dl>
  );
}
