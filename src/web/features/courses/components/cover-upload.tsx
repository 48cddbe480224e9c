import { ImagePlus, Trash2 } from "lucide-react";
import { type ChangeEvent, useRef } from "react";
import type { Course } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { notify } from "../../../lib/notify.js";
import { IMAGE_ACCEPT, pickImageFile } from "../../../lib/pick-image-file.js";
import { useRemoveCover, useUploadCover } from "../course-mutations.js";
import { CourseCover } from "./course-cover.js";

/** The cover image: PNG, JPEG or WebP up to 2 MB, saved at once; Remove goes back to the placeholder. */
export function CoverUpload({ course }: { course: Course }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadCover(course.id);
  const remove = useRemoveCover(course.id);
  const busy = upload.isPending || remove.isPending;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = pickImageFile(event, (message) => notify.error("Error updating course", message), "image");
    if (file) upload.mutate(file);
  };

  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,16rem)_1fr] sm:items-center">
      <CourseCover course={course} className="rounded-lg border" />
      <div className="grid gap-2">
        <div className="flex flex-wrap gap-2">
          <label htmlFor="course-cover-file" className="sr-only">
            Cover image
          </label>
          <input ref={inputRef} id="course-cover-file" type="file" accept={IMAGE_ACCEPT} className="hidden" onChange={onFile} />
          <Button variant="outline" onClick={() => inputRef.current?.click()} disabled={busy}>
            {upload.isPending ? <ButtonSpinner /> : <ImagePlus aria-hidden="true" />}
            {upload.isPending ? "Uploading..." : course.coverImage ? "Change cover" : "Upload cover"}
          </Button>
          {course.coverImage ? (
            <Button variant="ghost" onClick={() => remove.mutate()} disabled={busy}>
              {remove.isPending ? <ButtonSpinner /> : <Trash2 aria-hidden="true" />}
              {remove.isPending ? "Removing..." : "Remove cover"}
            </Button>
          ) : null}
        </div>
        <p className="text-xs text-muted-foreground">PNG, JPEG or WebP, up to 2 MB. Shown on the course card and page.</p>
      </div>
    </div>
  );
}
