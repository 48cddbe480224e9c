import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import {
  type AiPrompt,
  type AiPromptBody,
  aiPromptBodySchema,
  PRODUCT_PROMPT_KEYS,
  PROMPT_DESCRIPTION_MAX,
  PROMPT_KEY_MAX,
  PROMPT_TEXT_MAX,
  promptKeyUse,
} from "../../../../../../shared/contracts/ai-prompts.js";
import { Button } from "../../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../../components/ui/dialog.js";
import { FormField, TextField } from "../../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { Textarea } from "../../../../../components/ui/textarea.js";
import { applyServerFieldErrors } from "../../../../../lib/form-errors.js";
import { notify } from "../../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useCreatePrompt, useUpdatePrompt } from "../../prompts-api.js";
import { promptFailure } from "./prompt-messages.js";

const FIELDS = ["key", "description", "prompt"] as const;
const ID = "ai-prompt";

/** What the key typed so far steers, or that nothing reads it. */
function keyUse(value: string): string {
  const key = value.trim();
  if (!key) return "A key the product reads, such as chat-system. Lowercase letters, numbers, hyphens or underscores.";
  return promptKeyUse(key) ?? "Unused: nothing in the product reads this key.";
}

/** Add New Prompt (no `prompt`) or Edit, in one dialog; the shared contract checks it here and on the server. */
export function PromptDialog({ prompt, initialKey, onClose }: { prompt?: AiPrompt; initialKey?: string; onClose: () => void }) {
  const form = useForm<AiPromptBody>({
    resolver: zodResolver(aiPromptBodySchema),
    defaultValues: {
      key: prompt?.key ?? initialKey ?? "",
      description: prompt?.description ?? "",
      prompt: prompt?.prompt ?? "",
    },
  });
  const key = useWatch({ control: form.control, name: "key" }) ?? "";
  const create = useCreatePrompt();
  const update = useUpdatePrompt();
  const pending = create.isPending || update.isPending;
  const { errors } = form.formState;
  const action = prompt ? "update" : "create";

  const onError = (error: unknown) => {
    applyServerFieldErrors(form.setError, error, FIELDS);
    notify.error("Error", promptFailure(error, action));
  };
  const persist = (body: AiPromptBody) => {
    const done = () => {
      notify.success(`AI prompt ${action}d successfully`);
      onClose();
    };
    return savedOrNot(
      prompt
        ? update.mutateAsync({ id: prompt.id, body }, { onSuccess: done, onError })
        : create.mutateAsync(body, { onSuccess: done, onError }),
    );
  };
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{prompt ? "Edit AI Prompt" : "Add New Prompt"}</DialogTitle>
          <DialogDescription>A system prompt the product sends to the AI, looked up by its key.</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-5" onSubmit={onSubmit}>
          <TextField
            id={`${ID}-key`}
            label="Key"
            autoComplete="off"
            spellCheck={false}
            list={`${ID}-keys`}
            maxLength={PROMPT_KEY_MAX}
            hint={keyUse(key)}
            error={errors.key?.message}
            {...form.register("key")}
          />
          <datalist id={`${ID}-keys`}>
            {PRODUCT_PROMPT_KEYS.map((k) => (
              <option key={k.key} value={k.key} />
            ))}
          </datalist>
          <TextField
            id={`${ID}-description`}
            label="Description"
            autoComplete="off"
            maxLength={PROMPT_DESCRIPTION_MAX}
            error={errors.description?.message}
            {...form.register("description")}
          />
          <FormField id={`${ID}-prompt`} label="Prompt" error={errors.prompt?.message}>
            <Textarea
              id={`${ID}-prompt`}
              rows={8}
              maxLength={PROMPT_TEXT_MAX}
              placeholder="You are a helpful assistant for an online course platform..."
              aria-invalid={errors.prompt ? true : undefined}
              aria-describedby={errors.prompt ? `${ID}-prompt-error` : undefined}
              {...form.register("prompt")}
            />
          </FormField>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <ButtonSpinner /> : null}
              {pending ? "Saving..." : prompt ? "Save Changes" : "Create Prompt"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
