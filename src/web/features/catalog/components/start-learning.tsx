import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { useSignedInUser } from "../../../domain/public-reads.js";
import { coursePath, loginPath, registerPath } from "../../../lib/paths.js";

/**
 * "Start learning" (issue 33): a signed-in user goes straight to the course; a visitor registers first (or signs in,
 * when registration is closed) and lands on the course afterwards (`?next=`, kept by the sign-in screens).
 */
export function StartLearning({ courseId, size = "lg" }: { courseId: number; size?: "default" | "lg" }) {
  const user = useSignedInUser();
  const { settings } = usePlatformSettings();
  const course = coursePath(courseId);
  const href = user ? course : settings.allowRegistration ? registerPath(course) : loginPath(course);
  return (
    <Button asChild size={size}>
      <Link href={href}>Start learning</Link>
    </Button>
  );
}

/** Under Start learning, for a visitor who may register: it is free, and those with an account sign in instead. */
export function StartLearningNote({ courseId }: { courseId: number }) {
  const user = useSignedInUser();
  const { settings } = usePlatformSettings();
  if (user || !settings.allowRegistration) return null;
  return (
    <p className="text-sm text-muted-foreground">
      Free account.{" "}
      <Link href={loginPath(coursePath(courseId))} className="font-medium text-primary underline underline-offset-2">
        Sign in
      </Link>{" "}
      if you have one.
    </p>
  );
}
