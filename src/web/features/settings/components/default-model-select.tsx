import { useQuery } from "@tanstack/react-query";
import { Select as SelectPrimitive } from "radix-ui";
import { useId } from "react";
import { chooseModel, modelValue, parseModelValue } from "../../../../shared/model-choice.js";
import { Label } from "../../../components/ui/label.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { aiPlatformsQuery, platformModels, platformName } from "../../../domain/ai-models.js";

function GroupLabel({ children }: { children: string }) {
  return <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">{children}</SelectPrimitive.Label>;
}

/**
 * The model new chats start with: each usable platform (its own default) and
 * each of its models, from GET /api/ai/platforms (the chat's model picker's
 * list): nothing else is offered. A saved one that is no longer usable stays
 * shown, marked, with a note saying what new chats use instead.
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
  const platformsQuery = useQuery(aiPlatformsQuery);
  const platforms = platformsQuery.data ?? [];
  const known = platforms.some((p) => p.slug === value || platformModels(p).some((m) => modelValue(p.slug, m) === value));
  const saved = parseModelValue(value);
  const savedLabel = saved.model ? `${saved.model} (${platformName(saved.slug, platforms)})` : platformName(saved.slug, platforms);
  const instead = chooseModel(value, platforms);
  const insteadLabel = instead ? (instead.model ?? platformName(instead.aiPlatform, platforms)) : null;
  const unusable = platformsQuery.isSuccess && !known && !lockedByAdmin;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Default Model</Label>
      <Select value={value} disabled={lockedByAdmin} onValueChange={(next) => next !== value && onChange(next)}>
        <SelectTrigger id={id} className="sm:max-w-sm" aria-describedby={`${id}-description`}>
          <SelectValue placeholder="Choose a model" />
        </SelectTrigger>
        <SelectContent>
          {known ? null : <SelectItem value={value}>{`${saved.model ?? platformName(saved.slug, platforms)} (not available)`}</SelectItem>}
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
        </SelectContent>
      </Select>
      {unusable ? (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
          Your default model {savedLabel} is not available any more;{" "}
          {insteadLabel ? `new chats use ${insteadLabel}.` : "no AI platform is available for new chats right now."}
        </p>
      ) : null}
      <p id={`${id}-description`} className="text-xs text-muted-foreground">
        {lockedByAdmin
          ? "The administrator has chosen the model for every chat, so this setting does not apply."
          : "New chats start with this model. You can switch models inside any chat."}
      </p>
    </div>
  );
}
