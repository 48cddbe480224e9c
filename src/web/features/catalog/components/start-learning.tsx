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
  if (user) {
    return (
      <Button asChild size={size}>
        <Link href={course}>Start learning</Link>
      </Button>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <Button asChild size={size}>
        <Link href={settings.allowRegistration ? registerPath(course) : loginPath(course)}>Start learning</Link>
      </Button>
      {settings.allowRegistration ? (
        <p className="text-sm text-muted-foreground">
          Free account.{" "}
          <Link href={loginPath(course)} className="font-medium text-primary underline underline-offset-2">
            Sign in
          </Link>{" "}
          if you have one.
        </p>
      ) : null}
    </div>
  );
}
