import { Bot } from "lucide-react";
import type { AdminPlatform } from "../../../../../../shared/contracts/ai-platforms.js";
import { Badge } from "../../../../../components/ui/badge.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";
import { cn } from "../../../../../lib/cn.js";
import { LastTest } from "./last-test.js";
import { PlatformActions } from "./platform-actions.js";
import { PlatformDetails } from "./platform-details.js";
import { PlatformEditForm } from "./platform-edit-form.js";
import { KIND_LABELS, platformTheme } from "./platform-theme.js";

type Props = {
  platform: AdminPlatform;
  editing: boolean;
  /** Another card is being edited: only one at a time. */
  editLocked: boolean;
  onEdit: () => void;
  onDone: () => void;
};

/** Active when it can answer and its last test (if any) passed; Test Failed when that test failed; Setup Required otherwise. */
function statusBadge(platform: AdminPlatform): { label: string; className?: string; variant: "new" | "beta" | "outline" } {
  if (!platform.usable) return { label: "Setup Required", variant: "beta" };
  if (platform.lastTest?.ok === false) {
    return { label: "Test Failed", variant: "outline", className: "border-destructive/40 bg-destructive/10 text-destructive" };
  }
  return { label: "Active", variant: "new" };
}

/**
 * One platform: its status badge and its last connection test; view or edit mode. On phones the badge goes under the
 * name, and names wrap on spaces (never cut).
 */
export function PlatformCard({ platform, editing, editLocked, onEdit, onDone }: Props) {
  const theme = platformTheme(platform.slug);
  const titleId = `platform-${platform.id}-title`;
  const badge = statusBadge(platform);
  return (
    <Card role="region" aria-labelledby={titleId} className={cn("border-t-4", theme.bar)}>
      <CardHeader className="flex-row flex-wrap items-start gap-3">
        <span className={cn("flex size-10 shrink-0 items-center justify-center rounded-lg", theme.chip)}>
          <Bot className="size-5" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1 max-sm:basis-[calc(100%-3.25rem)]">
          <CardTitle id={titleId} className="leading-snug break-words">
            {platform.name}
          </CardTitle>
          <CardDescription className="break-words">
            <span className="font-mono">{platform.slug}</span> · {KIND_LABELS[platform.kind]}
          </CardDescription>
        </div>
        <Badge
          variant={badge.variant}
          className={cn("shrink-0 px-2 py-1 text-xs tracking-normal whitespace-nowrap normal-case max-sm:ml-13", badge.className)}
        >
          {badge.label}
        </Badge>
      </CardHeader>
      <CardContent>
        {editing ? (
          <PlatformEditForm platform={platform} onDone={onDone} />
        ) : (
          <>
            <PlatformDetails platform={platform} />
            <LastTest platform={platform} />
            <PlatformActions platform={platform} onEdit={onEdit} editLocked={editLocked} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
