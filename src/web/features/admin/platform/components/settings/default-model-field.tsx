import { useQuery } from "@tanstack/react-query";
import { Select as SelectPrimitive } from "radix-ui";
import { Link } from "wouter";
import { modelValue } from "../../../../../../shared/model-choice.js";
import { FormField } from "../../../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../../../components/ui/select.js";
import { aiPlatformsQuery, platformModels } from "../../../../../domain/ai-models.js";
import { paths } from "../../../../../lib/paths.js";

const ID = "platform-default-model";

/**
 * Default model: a platform that can answer now (its own default) or one of its models, as "slug" or
 * "slug/model". The stored value stays choosable even when nothing offers it any more (marked), so the
 * other settings can still be saved; the server refuses any other value.
 */
export function DefaultModelField({
  value,
  follows,
  error,
  onChange,
}: {
  value: string;
  /** No choice of the admin's is in force: the value shown is the one chats use in its place (decision 061). */
  follows: boolean;
  error?: string;
  onChange: (value: string) => void;
}) {
  const platforms = useQuery(aiPlatformsQuery);
  const usable = platforms.data ?? [];
  const offered = usable.some((p) => p.slug === value || platformModels(p).some((m) => modelValue(p.slug, m) === value));
  const hint =
    platforms.isSuccess && usable.length === 0 ? (
      <>
        No AI platform is set up yet.{" "}
        <Link href={paths.adminAiPlatforms} className="font-medium text-foreground underline underline-offset-2">
          Set one up in AI Chat Settings
        </Link>{" "}
        to choose its model.
      </>
    ) : follows ? (
      "New chats use the first AI platform set up, following the platforms, until you choose a model here."
    ) : (
      "New chats start with it. With model selection off, every chat uses it."
    );
  return (
    <FormField id={ID} label="Default model" error={error} hint={hint}>
      <Select value={value || undefined} onValueChange={onChange}>
        <SelectTrigger
          id={ID}
          className="sm:max-w-md"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ID}-error` : undefined}
        >
          <SelectValue placeholder={platforms.isPending ? "Loading models..." : "Choose a model"} />
        </SelectTrigger>
        <SelectContent>
          {value && !offered ? <SelectItem value={value}>{`${value} (not available)`}</SelectItem> : null}
          {usable.map((platform) => (
            <SelectPrimitive.Group key={platform.slug}>
              <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">
                {platform.name}
              </SelectPrimitive.Label>
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
    </FormField>
  );
}
