import { Lock } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import type { ChatPlatform } from "../../../../shared/contracts/ai-platforms.js";
import { modelValue, parseModelValue } from "../../../../shared/model-choice.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { platformModels } from "../../../domain/ai-models.js";

/**
 * The chat's platform and model, grouped by platform; each option's value is
 * "slug/model". A choice that is no longer offered stays shown, marked.
 */
export function ModelPicker({
  platforms,
  aiPlatform,
  model,
  disabled,
  onChange,
}: {
  platforms: ChatPlatform[];
  aiPlatform: string;
  model: string | null;
  disabled: boolean;
  onChange: (choice: { aiPlatform: string; model: string }) => void;
}) {
  const platform = platforms.find((p) => p.slug === aiPlatform);
  const value = modelValue(aiPlatform, model ?? platform?.defaultModel);
  const offered = platforms.some((p) => platformModels(p).some((m) => modelValue(p.slug, m) === value));
  return (
    <Select
      value={value}
      disabled={disabled || platforms.length === 0}
      onValueChange={(next) => {
        if (next === value) return;
        const choice = parseModelValue(next);
        if (choice.model) onChange({ aiPlatform: choice.slug, model: choice.model });
      }}
    >
      <SelectTrigger aria-label="Model" className="h-9 w-[11.5rem] sm:w-60">
        <SelectValue placeholder="Choose a model" />
      </SelectTrigger>
      <SelectContent>
        {offered ? null : (
          <SelectItem value={value}>
            {model ?? aiPlatform} {platforms.length > 0 ? "(unavailable)" : ""}
          </SelectItem>
        )}
        {platforms.map((p) => (
          <SelectPrimitive.Group key={p.slug}>
            <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">{p.name}</SelectPrimitive.Label>
            {platformModels(p).map((m) => (
              <SelectItem key={m} value={modelValue(p.slug, m)}>
                {m}
              </SelectItem>
            ))}
            {p.lockedModels.map((m) => (
              // Shown so the user knows they exist; not choosable on their plan (the reason is under them).
              <SelectItem key={`locked-${m}`} value={`locked:${modelValue(p.slug, m)}`} disabled>
                <span className="inline-flex items-center gap-1.5">
                  <Lock className="size-3" aria-hidden="true" />
                  {m}
                </span>
              </SelectItem>
            ))}
            {p.lockedModels.length > 0 && p.lockReason ? <p className="px-2 pb-1.5 text-xs text-muted-foreground">{p.lockReason}</p> : null}
          </SelectPrimitive.Group>
        ))}
      </SelectContent>
    </Select>
  );
}
