import { Plus } from "lucide-react";
import { useState } from "react";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.js";
import { usePageTitle } from "../../../lib/page-title.js";
import type { CourseScope } from "../api.js";
import { CourseList } from "../components/course-list.js";
import { NewCourseDialog } from "../components/new-course-dialog.js";

const TABS: { scope: CourseScope; label: string }[] = [
  { scope: "all", label: "All Courses" },
  { scope: "mine", label: "My Courses" },
  { scope: "public", label: "Public Courses" },
];

/** /courses: the Course AI Builder. */
export function CoursesPage() {
  usePageTitle("Courses");
  const [creating, setCreating] = useState(false);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <div className="flex items-center gap-2">
            <h1 className="text-3xl font-bold tracking-tight">Course AI Builder</h1>
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
      {creating ? <NewCourseDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
