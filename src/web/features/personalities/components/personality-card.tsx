import { useQuery } from "@tanstack/react-query";
import { Pencil, Trash2, UserRound } from "lucide-react";
import type { Personality } from "../../../../shared/contracts/personalities.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { aiPlatformsQuery, platformName } from "../../../domain/ai-models.js";
import { cn } from "../../../lib/cn.js";

function Fact({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className={cn("grid min-w-0 gap-0.5", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate text-sm font-medium" title={value}>
        {value}
      </dd>
    </div>
  );
}

/** One personality: name, tone, description, its parameters, and Edit / Delete. */
export function PersonalityCard({ personality, onEdit, onDelete }: { personality: Personality; onEdit: () => void; onDelete: () => void }) {
  const platforms = useQuery(aiPlatformsQuery).data;
  const titleId = `personality-${personality.id}-title`;
  const preferred = personality.platformSlug
    ? `${platformName(personality.platformSlug, platforms)} · ${personality.model ?? "platform default"}`
    : "No preference";
  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col">
      <CardHeader className="flex-row items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary">
          <UserRound className="size-5" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1.5">
          <CardTitle id={titleId} className="truncate">
            {personality.name}
          </CardTitle>
          {personality.tone ? (
            <Badge variant="secondary" className="text-xs tracking-normal normal-case">
              {personality.tone}
            </Badge>
          ) : null}
        </div>
      </CardHeader>
      <CardContent className="grid flex-1 content-between gap-4">
        <CardDescription className="line-clamp-3">{personality.description || "No description."}</CardDescription>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Fact label="Temperature" value={personality.temperature.toFixed(1)} />
          <Fact label="Response length" value={`${personality.maxTokens} tokens`} />
          <Fact label="Preferred model" value={preferred} className="col-span-2 sm:col-span-1" />
        </dl>
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${personality.name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="text-destructive hover:text-destructive"
            onClick={onDelete}
            aria-label={`Delete ${personality.name}`}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
