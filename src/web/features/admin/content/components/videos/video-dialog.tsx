import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { type AdminVideo, VIDEO_LIMITS, videoBodySchema } from "../../../../../../shared/contracts/admin-videos.js";
import { Button } from "../../../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../../components/ui/dialog.js";
import { FormField, TextField } from "../../../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../../../components/ui/spinner.js";
import { SwitchField } from "../../../../../components/ui/switch-field.js";
import { Textarea } from "../../../../../components/ui/textarea.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../../../lib/form-errors.js";
import { notify } from "../../../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../../../lib/unsaved-changes.js";
import { useCreateVideo, useUpdateVideo } from "../../videos-api.js";
import { orderFromInput, VIDEO_FIELDS, type VideoFormInput, type VideoFormOutput, videoFormValues } from "./video-form-values.js";

const ID = "video";

/** Add Video (no `video`) or Edit Video, in one dialog; the shared contract checks it here and on the server. */
export function VideoDialog({ video, videos, onClose }: { video?: AdminVideo; videos: AdminVideo[]; onClose: () => void }) {
  const form = useForm<VideoFormInput, unknown, VideoFormOutput>({
    resolver: zodResolver(videoBodySchema),
    defaultValues: videoFormValues(video, videos),
  });
  const create = useCreateVideo();
  const update = useUpdateVideo();
  const pending = create.isPending || update.isPending;
  const { errors } = form.formState;

  const failed = (what: "add" | "update") => (error: unknown) => {
    applyServerFieldErrors(form.setError, error, VIDEO_FIELDS);
    notify.error("Error", `Failed to ${what} video: ${errorMessage(error)}`);
  };
  const done = (what: "added" | "updated") => () => {
    notify.success("Success", `Video has been ${what} successfully`);
    onClose();
  };
  const persist = (body: VideoFormOutput) =>
    savedOrNot(
      video
        ? update.mutateAsync({ id: video.id, body }, { onSuccess: done("updated"), onError: failed("update") })
        : create.mutateAsync(body, { onSuccess: done("added"), onError: failed("add") }),
    );
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{video ? "Edit Video" : "Add Video"}</DialogTitle>
          <DialogDescription>Active videos show on every user's dashboard, in this order.</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <TextField
            id={`${ID}-title`}
            label="Title"
            autoComplete="off"
            maxLength={VIDEO_LIMITS.title}
            error={errors.title?.message}
            {...form.register("title")}
          />
          <TextField
            id={`${ID}-subtitle`}
            label="Subtitle"
            autoComplete="off"
            maxLength={VIDEO_LIMITS.subtitle}
            hint="Optional."
            error={errors.subtitle?.message}
            {...form.register("subtitle")}
          />
          <FormField id={`${ID}-description`} label="Description" hint="Optional." error={errors.description?.message}>
            <Textarea
              id={`${ID}-description`}
              rows={3}
              maxLength={VIDEO_LIMITS.description}
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={errors.description ? `${ID}-description-error` : undefined}
              {...form.register("description")}
            />
          </FormField>
          <TextField
            id={`${ID}-embedUrl`}
            label="Embed URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://www.youtube.com/watch?v=..."
            hint="An https YouTube, Vimeo or Loom link; watch and share links work too."
            error={errors.embedUrl?.message}
            {...form.register("embedUrl")}
          />
          <TextField
            id={`${ID}-order`}
            label="Order"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className="max-w-40"
            hint="1 is shown first."
            error={errors.order?.message}
            {...form.register("order", { setValueAs: orderFromInput })}
          />
          <Controller
            control={form.control}
            name="isActive"
            render={({ field }) => (
              <SwitchField
                label="Active Status"
                description="Inactive videos stay here but are hidden from the dashboard."
                checked={field.value ?? true}
                onChange={field.onChange}
              />
            )}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <ButtonSpinner /> : null}
              {pending ? "Saving..." : video ? "Save Changes" : "Add Video"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
