import { Plus } from "lucide-react";
import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.js";
import { COURSE_FEATURE_NAME } from "../../../lib/feature-names.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import type { CourseScope } from "../api.js";
import { CourseList } from "../components/course-list.js";
import { MaterialCourseDialog } from "../components/material-course-dialog.js";
import { NewCourseDialog } from "../components/new-course-dialog.js";
import { sourcesFromSearch } from "../material-api.js";

const TABS: { scope: CourseScope; label: string }[] = [
  { scope: "all", label: "All Courses" },
  { scope: "mine", label: "My Courses" },
  { scope: "public", label: "Public Courses" },
];

/** /courses: the Course AI Builder. `?new=material` (with `chatId` or `folderId`) opens "From my material". */
export function CoursesPage() {
  usePageTitle("Courses");
  const [creating, setCreating] = useState(false);
  const [, navigate] = useLocation();
  const linked = sourcesFromSearch(useSearch());
  const [fromMaterial, setFromMaterial] = useState(false);
  const closeMaterial = () => {
    setFromMaterial(false);
    if (linked.open) navigate(paths.courses, { replace: true });
  };
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <div className="flex items-center gap-2">
            <h1 className="text-3xl font-bold tracking-tight">{COURSE_FEATURE_NAME}</h1>
            <Badge variant="beta">BETA</Badge>
          </div>
          <p className="text-muted-foreground">Create courses with AI help, and read the ones others share.</p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          New Course
        </Button>
      </div>
      <Tabs defaultValue="all">
        <TabsList className="grid h-auto grid-cols-3 sm:w-fit sm:min-w-md">
          {TABS.map(({ scope, label }) => (
            <TabsTrigger key={scope} value={scope} className="px-1 py-1.5 whitespace-normal sm:px-3">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ scope }) => (
          <TabsContent key={scope} value={scope}>
            <CourseList scope={scope} onCreate={() => setCreating(true)} />
          </TabsContent>
        ))}
      </Tabs>
      {creating ? (
        <NewCourseDialog
          onClose={() => setCreating(false)}
          onFromMaterial={() => {
            setCreating(false);
            setFromMaterial(true);
          }}
        />
      ) : null}
      {fromMaterial || linked.open ? <MaterialCourseDialog from={linked.sources} onClose={closeMaterial} /> : null}
    </div>
  );
}
