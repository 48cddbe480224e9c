/**
 * Who can see a course in the state given, in one sentence: the Course Status panel says it of the saved course, the
 * details form of the status chosen (decision 060: the form said "A draft is visible only to you" with Published
 * chosen). A draft is visible only to its owner; a published course to users.
 */
export function courseVisibilityText(course: { published: boolean; isPublic: boolean; listedInCatalog: boolean }): string {
  if (!course.published) return "A draft is visible only to you.";
  if (!course.isPublic) return "Published, but private: only you (and administrators) can see it.";
  return course.listedInCatalog
    ? "Published and public: every signed-in user can read it, and visitors find it in the course catalog."
    : "Published and public: every signed-in user can read it (not listed in the course catalog).";
}
