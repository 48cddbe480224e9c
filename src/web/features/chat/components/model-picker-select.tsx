import { CheckIcon, Lock, Sparkles } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import { useLocation } from "wouter";
import type { ChatPlatform } from "../../../../shared/contracts/ai-platforms.js";
import { describeModel, modelName } from "../../../../shared/model-catalog.js";
import { modelValue, parseModelValue } from "../../../../shared/model-choice.js";
import { useEarlyAccessCheckoutPath } from "../../../components/get-early-access-button.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { platformModels, platformName } from "../../../domain/ai-models.js";
import { usePaymentSettings } from "../../../domain/payment-settings.js";

/** The value of the last option for a free user with locked models: it opens the Early Access checkout. */
const GET_EARLY_ACCESS = "action:get-early-access";

/** One model: its readable name (what the closed picker shows) over a one-line description. */
function ModelOption({ value, id, locked }: { value: string; id: string; locked?: boolean }) {
  const { name, description } = describeModel(id);
  return (
    <SelectPrimitive.Item
      value={value}
      disabled={locked}
      title={id}
      className="relative flex w-full cursor-default flex-col items-start rounded-sm py-1.5 pr-8 pl-2 text-sm outline-none select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50"
    >
      <span className="absolute top-2 right-2 flex size-3.5 items-center justify-center">
        <SelectPrimitive.ItemIndicator>
          <CheckIcon className="size-4" aria-hidden="true" />
        </SelectPrimitive.ItemIndicator>
      </span>
      <span className="inline-flex items-center gap-1.5 font-medium">
        {locked ? <Lock className="size-3" aria-hidden="true" /> : null}
        <SelectPrimitive.ItemText>{name}</SelectPrimitive.ItemText>
      </span>
      {description ? <span className="text-xs text-muted-foreground">{description}</span> : null}
    </SelectPrimitive.Item>
  );
}

export interface ModelPickerProps {
  platforms: ChatPlatform[];
  aiPlatform: string;
  model: string | null;
  disabled: boolean;
  onChange: (choice: { aiPlatform: string; model: string }) => void;
}

/**
 * The chat's platform and model, grouped by platform (its name over the group); each model by its readable
 * name and a one-line description (shared/model-catalog.ts; an unknown model keeps its id). Each option's value
 * is "slug/model". A choice that is no longer offered stays shown, marked. Locked models (free plan) are
 * listed disabled with the reason, followed by "Get Early Access". Loaded when first used (`model-picker.tsx`).
 */
export function ModelPickerSelect({
  platforms,
  aiPlatform,
  model,
  disabled,
  onChange,
  defaultOpen,
  focusTrigger,
}: ModelPickerProps & { defaultOpen: boolean; focusTrigger: boolean }) {
  const platform = platforms.find((p) => p.slug === aiPlatform);
  const value = modelValue(aiPlatform, model ?? platform?.defaultModel);
  const offered = platforms.some((p) => platformModels(p).some((m) => modelValue(p.slug, m) === value));
  const [, navigate] = useLocation();
  const checkoutPath = useEarlyAccessCheckoutPath();
  const paymentsAvailable = usePaymentSettings().settings.paymentsAvailable;
  const offerUpgrade = paymentsAvailable && platforms.some((p) => p.lockedModels.length > 0);
  return (
    <Select
      defaultOpen={defaultOpen}
      value={value}
      disabled={disabled || platforms.length === 0}
      onValueChange={(next) => {
        if (next === value) return;
        if (next === GET_EARLY_ACCESS) {
          navigate(checkoutPath);
          return;
        }
        const choice = parseModelValue(next);
        if (choice.model) onChange({ aiPlatform: choice.slug, model: choice.model });
      }}
    >
      <SelectTrigger
        ref={(node) => void (focusTrigger && node?.focus())}
        aria-label="Model"
        className="h-9 w-[11.5rem] min-w-0 sm:w-56 [&>span]:truncate"
      >
        <SelectValue placeholder="Choose a model" />
      </SelectTrigger>
      <SelectContent className="w-72 max-w-[calc(100vw-1rem)]" align="end">
        {offered ? null : (
          <SelectItem value={value}>
            {model ? `${modelName(model)} (${platformName(aiPlatform, platforms)})` : platformName(aiPlatform, platforms)}
            {platforms.length > 0 ? " (unavailable)" : ""}
          </SelectItem>
        )}
        {platforms.map((p) => (
          <SelectPrimitive.Group key={p.slug}>
            <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">{p.name}</SelectPrimitive.Label>
            {platformModels(p).map((m) => (
              <ModelOption key={m} value={modelValue(p.slug, m)} id={m} />
            ))}
            {p.lockedModels.map((m) => (
              // Shown so the user knows they exist; not choosable on their plan (the reason is under them).
              <ModelOption key={`locked-${m}`} value={`locked:${modelValue(p.slug, m)}`} id={m} locked />
            ))}
            {p.lockedModels.length > 0 && p.lockReason ? <p className="px-2 pb-1.5 text-xs text-muted-foreground">{p.lockReason}</p> : null}
          </SelectPrimitive.Group>
        ))}
        {offerUpgrade ? (
          <>
            <SelectPrimitive.Separator className="-mx-1 my-1 h-px bg-border" />
            <SelectItem value={GET_EARLY_ACCESS}>
              <span className="inline-flex items-center gap-1.5 font-medium text-primary">
                <Sparkles className="size-3.5" aria-hidden="true" />
                Get Early Access
              </span>
            </SelectItem>
          </>
        ) : null}
      </SelectContent>
    </Select>
  );
}
