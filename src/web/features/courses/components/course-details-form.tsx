import { Controller, type UseFormReturn } from "react-hook-form";
import { CERTIFICATE_STYLE_LABELS, CERTIFICATE_STYLES } from "../../../../shared/contracts/courses.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { Textarea } from "../../../components/ui/textarea.js";
import type { CourseDetailsInput, CourseDetailsOutput } from "../course-details-schema.js";
import { courseVisibilityText } from "../course-visibility.js";

export const COURSE_DETAILS_FORM_ID = "course-details-form";

type Form = UseFormReturn<CourseDetailsInput, unknown, CourseDetailsOutput>;

/** Title, description, status, visibility, the catalogue listing (issue 33) and the certificate style (decision 062); Save Course (in the page header) submits it. */
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
            <FormField
              id="course-status"
              label="Status"
              error={fieldState.error?.message}
              hint={courseVisibilityText({
                published: field.value === "published",
                isPublic: form.watch("isPublic") ?? false,
                listedInCatalog: form.watch("listedInCatalog") ?? true,
              })}
            >
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
              label="List in the public catalog"
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
        <Controller
          control={form.control}
          name="certificateStyle"
          render={({ field, fieldState }) => (
            <FormField
              id="course-certificate-style"
              label="Certificate style"
              error={fieldState.error?.message}
              hint="How the certificate learners download when they finish looks."
            >
              <Select value={field.value ?? "classic"} onValueChange={field.onChange}>
                <SelectTrigger id="course-certificate-style" aria-invalid={fieldState.error ? true : undefined}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {CERTIFICATE_STYLES.map((style) => (
                    <SelectItem key={style} value={style}>
                      {CERTIFICATE_STYLE_LABELS[style]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
          )}
        />
      </div>
    </form>
  );
}
