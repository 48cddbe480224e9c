import { zodResolver } from "@hookform/resolvers/zod";
import { RotateCcw, Save } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { NO_HINTS } from "../../../../shared/contracts/fields.js";
import { BackLink } from "../../../components/back-link.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { coursePath } from "../../../lib/paths.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import {
  COURSE_DETAIL_FIELDS,
  type CourseDetailsInput,
  type CourseDetailsOutput,
  courseDetailsSchema,
  courseDetailsValues,
} from "../course-details-schema.js";
import { useUpdateCourse } from "../course-mutations.js";
import { type Hints, TrainingHintsContext } from "../training-hints.js";
import { COURSE_DETAILS_FORM_ID, CourseDetailsForm } from "./course-details-form.js";
import { CoverUpload } from "./cover-upload.js";
import { ModulesPanel } from "./modules-panel.js";
import { StatusPanel } from "./status-panel.js";
import { TrainingPanel } from "./training-panel.js";

/** Edit Course: details and cover, Modules & Lessons, Course Training and Course Status. */
export function CourseEditor({ outline }: { outline: CourseOutline }) {
  const { course } = outline;
  const [tab, setTab] = useState("modules");
  const [hints, setHints] = useState<Hints>(NO_HINTS);
  const update = useUpdateCourse(course.id);
  const form = useForm<CourseDetailsInput, unknown, CourseDetailsOutput>({
    resolver: zodResolver(courseDetailsSchema),
    defaultValues: courseDetailsValues(course),
  });

  // A change saved elsewhere (Publish Course, another tab) shows in the fields the user has not touched.
  useEffect(() => {
    form.reset(courseDetailsValues(course), { keepDirtyValues: true, keepErrors: true });
  }, [course, form]);

  const persist = (body: CourseDetailsOutput) =>
    savedOrNot(
      update.mutateAsync(body, {
        onSuccess: (saved) => form.reset(courseDetailsValues(saved)),
        onError: (error) => {
          if (applyServerFieldErrors(form.setError, error, COURSE_DETAIL_FIELDS).length > 0) setTab("details");
        },
      }),
    );
  // A refused field shows on the Course Details tab, also when the save came from the unsaved-changes question.
  const save = saveForm(form, persist, () => setTab("details"));
  useUnsavedChanges({ dirty: form.formState.isDirty, save });

  return (
    <TrainingHintsContext.Provider value={hints}>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="grid gap-1">
            <BackLink href={coursePath(course.id)} label="Back to Course" />
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Edit Course</h1>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => form.reset(courseDetailsValues(course))} disabled={update.isPending}>
              <RotateCcw aria-hidden="true" />
              Reset Changes
            </Button>
            <Button type="submit" form={COURSE_DETAILS_FORM_ID} disabled={update.isPending}>
              {update.isPending ? <ButtonSpinner /> : <Save aria-hidden="true" />}
              {update.isPending ? "Saving..." : "Save Course"}
            </Button>
          </div>
        </div>
        <div className="grid gap-6 lg:grid-cols-3">
          <Tabs value={tab} onValueChange={setTab} className="min-w-0 lg:col-span-2">
            <TabsList className="grid h-auto grid-cols-2 sm:w-fit sm:min-w-sm">
              <TabsTrigger value="details" className="py-1.5">
                Course Details
              </TabsTrigger>
              <TabsTrigger value="modules" className="py-1.5">
                Modules &amp; Lessons
              </TabsTrigger>
            </TabsList>
            <TabsContent value="details" keepMounted>
              <Card>
                <CardHeader>
                  <CardTitle>Course Details</CardTitle>
                  <CardDescription>Save Course keeps these changes; Reset Changes brings back the saved ones.</CardDescription>
                </CardHeader>
                <CardContent className="grid gap-6">
                  <CourseDetailsForm form={form} onSubmit={() => void save()} />
                  <section aria-labelledby="cover-heading" className="grid gap-3 border-t pt-5">
                    <h3 id="cover-heading" className="font-semibold">
                      Cover image
                    </h3>
                    <CoverUpload course={course} />
                  </section>
                </CardContent>
              </Card>
            </TabsContent>
            <TabsContent value="modules" keepMounted>
              <ModulesPanel outline={outline} />
            </TabsContent>
          </Tabs>
          <aside className="grid content-start gap-6">
            <StatusPanel outline={outline} />
            <TrainingPanel hints={hints} onChange={setHints} />
          </aside>
        </div>
      </div>
    </TrainingHintsContext.Provider>
  );
}
