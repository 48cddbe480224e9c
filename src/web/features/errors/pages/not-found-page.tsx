import { Home, SearchX } from "lucide-react";
import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";

/**
 * Said to the reader, not to a developer: the old router fallback ("Did you forget to add the page to the router?")
 * told a developer what to do, not a reader (decision 060).
 */
export const NOT_FOUND_TEXT = "There is no page at this address. The link may be wrong, or the page may have moved.";

/** Any path the router does not know, inside the site's frame (app/route-guards.tsx `NotFoundFrame`). */
export function NotFoundPage() {
  usePageTitle("Page Not Found");
  return (
    <div className="flex min-h-[50vh] items-center justify-center px-4 py-12" data-testid="not-found">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <div className="flex items-center gap-2">
            <SearchX className="size-8 text-muted-foreground" aria-hidden="true" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">{NOT_FOUND_TEXT}</p>
          <Button asChild className="w-fit">
            <Link href={paths.home}>
              <Home aria-hidden="true" />
              Go to the home page
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
