import { Home, ShieldAlert } from "lucide-react";
import { Link } from "wouter";
import { ADMINS_ONLY } from "../../../../../shared/contracts/errors.js";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { paths } from "../../../../lib/paths.js";

/** Any /admin path for a signed-in user who is not an admin (docs/product.md, Admin back office). */
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
          <p className="text-sm text-muted-foreground">{ADMINS_ONLY}</p>
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
