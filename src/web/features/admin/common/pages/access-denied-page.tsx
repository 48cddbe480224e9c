import { Home, ShieldAlert } from "lucide-react";
import { Link } from "wouter";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { paths } from "../../../../lib/paths.js";

/** Any /admin path for a signed-in user who is not an admin (spec 002, route guards). */
export function AccessDeniedPage() {
  usePageTitle("Access Denied");
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <div className="flex items-center gap-2">
            <ShieldAlert className="size-8 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Access Denied</h1>
          </div>
          <p className="text-sm text-muted-foreground">You don't have permission to access this area.</p>
          <Button asChild className="w-fit">
            <Link href={paths.home}>
              <Home aria-hidden="true" />
              Return to Home
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
