import { useQuery } from "@tanstack/react-query";
import { Select as SelectPrimitive } from "radix-ui";
import { useId } from "react";
import { modelValue } from "../../../../shared/model-choice.js";
import { Label } from "../../../components/ui/label.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { aiPlatformsQuery, NAMED_PLATFORMS, platformModels } from "../../../domain/ai-models.js";

function GroupLabel({ children }: { children: string }) {
  return <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">{children}</SelectPrimitive.Label>;
}

/**
 * The model new chats start with: each usable platform (its own default) and
 * each of its models, from GET /api/ai/platforms. The named providers not set
 * up yet stay choosable (chats then start on the first usable platform), and
 * so does the stored value.
 */
export function DefaultModelSelect({
  value,
  lockedByAdmin = false,
  onChange,
}: {
  value: string;
  /** Model selection off (Platform Settings): every chat uses the administrator's model. */
  lockedByAdmin?: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const platforms = useQuery(aiPlatformsQuery).data ?? [];
  const pending = NAMED_PLATFORMS.filter((named) => !platforms.some((p) => p.slug === named.slug));
  const known =
    platforms.some((p) => p.slug === value || platformModels(p).some((m) => modelValue(p.slug, m) === value)) ||
    pending.some((named) => named.slug === value);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Default Model</Label>
      <Select value={value} disabled={lockedByAdmin} onValueChange={(next) => next !== value && onChange(next)}>
        <SelectTrigger id={id} className="sm:max-w-sm" aria-describedby={`${id}-description`}>
          <SelectValue placeholder="Choose a model" />
        </SelectTrigger>
        <SelectContent>
          {known ? null : <SelectItem value={value}>{value}</SelectItem>}
          {platforms.map((platform) => (
            <SelectPrimitive.Group key={platform.slug}>
              <GroupLabel>{platform.name}</GroupLabel>
              <SelectItem value={platform.slug}>{`${platform.name} (platform default)`}</SelectItem>
              {platformModels(platform).map((model) => (
                <SelectItem key={model} value={modelValue(platform.slug, model)}>
                  {model}
                </SelectItem>
              ))}
            </SelectPrimitive.Group>
          ))}
          {pending.length > 0 ? (
            <SelectPrimitive.Group>
              <GroupLabel>Not set up yet</GroupLabel>
              {pending.map((named) => (
                <SelectItem key={named.slug} value={named.slug}>
                  {named.name}
                </SelectItem>
              ))}
            </SelectPrimitive.Group>
          ) : null}
        </SelectContent>
      </Select>
      <p id={`${id}-description`} className="text-xs text-muted-foreground">
        {lockedByAdmin
          ? "The administrator has chosen the model for every chat, so this setting does not apply."
          : "New chats start with this model. You can switch models inside any chat."}
      </p>
    </div>
  );
}
