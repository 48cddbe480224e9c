import { Controller, type UseFormReturn } from "react-hook-form";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { Textarea } from "../../../components/ui/textarea.js";
import type { CourseDetailsInput, CourseDetailsOutput } from "../course-details-schema.js";

export const COURSE_DETAILS_FORM_ID = "course-details-form";

type Form = UseFormReturn<CourseDetailsInput, unknown, CourseDetailsOutput>;

/** Title, description, status, visibility and the catalogue listing (issue 33); Save Course (in the page header) submits it. */
export function CourseDetailsForm({ form, onSubmit }: { form: Form; onSubmit: () => void }) {
  const { errors } = form.formState;
  return (
    <form
      id={COURSE_DETAILS_FORM_ID}
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <TextField id="course-title" label="Title" autoComplete="off" error={errors.title?.message} {...form.register("title")} />
      <FormField id="course-description" label="Description" error={errors.description?.message}>
        <Textarea
          id="course-description"
          rows={5}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? "course-description-error" : undefined}
          {...form.register("description")}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="status"
          render={({ field, fieldState }) => (
            <FormField id="course-status" label="Status" error={fieldState.error?.message} hint="A draft is visible only to you.">
              <Select value={field.value ?? ""} onValueChange={field.onChange}>
                <SelectTrigger id="course-status" aria-invalid={fieldState.error ? true : undefined}>
                  <SelectValue placeholder="Choose a status" />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="draft">Draft</SelectItem>
                  <SelectItem value="published">Published</SelectItem>
                </SelectContent>
              </Select>
            </FormField>
          )}
        />
        <Controller
          control={form.control}
          name="isPublic"
          render={({ field }) => (
            <SwitchField
              label="Public course"
              description="When published, every signed-in user can read it."
              checked={field.value ?? false}
              onChange={field.onChange}
            />
          )}
        />
        <Controller
          control={form.control}
          name="listedInCatalog"
          render={({ field }) => (
            <SwitchField
              label="List in the public catalogue"
              description={
                form.watch("isPublic")
                  ? "When published, anyone can find it at /catalog, without an account. Off: signed-in users only."
                  : "Only for a public course: this one is private."
              }
              checked={field.value ?? true}
              onChange={field.onChange}
              disabled={!form.watch("isPublic")}
            />
          )}
        />
      </div>
    </form>
  );
}
