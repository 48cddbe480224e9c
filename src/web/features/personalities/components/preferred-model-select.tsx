import { useQuery } from "@tanstack/react-query";
import { Select as SelectPrimitive } from "radix-ui";
import { modelValue, parseModelValue } from "../../../../shared/model-choice.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { aiPlatformsQuery, platformModels } from "../../../domain/ai-models.js";

const NONE = "none";

export type ModelChoice = { platformSlug: string | null; model: string | null };

/**
 * "No preference" or one of the models this user may pick ("slug/model"),
 * split back into platformSlug + model. A saved choice no longer offered stays shown, marked.
 */
export function PreferredModelSelect({
  id,
  value,
  invalid,
  onChange,
}: {
  id: string;
  value: ModelChoice;
  invalid?: boolean;
  onChange: (choice: ModelChoice) => void;
}) {
  const platforms = useQuery(aiPlatformsQuery).data ?? [];
  const current = value.platformSlug ? modelValue(value.platformSlug, value.model) : NONE;
  const offered = current === NONE || platforms.some((p) => platformModels(p).some((m) => modelValue(p.slug, m) === current));
  return (
    <Select
      value={current}
      onValueChange={(next) => {
        if (next === NONE) return onChange({ platformSlug: null, model: null });
        const { slug, model } = parseModelValue(next);
        onChange({ platformSlug: slug, model });
      }}
    >
      <SelectTrigger id={id} aria-invalid={invalid || undefined}>
        <SelectValue placeholder="No preference" />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NONE}>No preference</SelectItem>
        {offered ? null : <SelectItem value={current}>{`${current} (unavailable)`}</SelectItem>}
        {platforms.map((p) => (
          <SelectPrimitive.Group key={p.slug}>
            <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">{p.name}</SelectPrimitive.Label>
            {platformModels(p).map((m) => (
              <SelectItem key={m} value={modelValue(p.slug, m)}>
                {modelValue(p.slug, m)}
              </SelectItem>
            ))}
          </SelectPrimitive.Group>
        ))}
      </SelectContent>
    </Select>
  );
}
