import { Link } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { paths } from "../../../lib/paths.js";

/** A course (or preview) that is not in the catalogue, or could not be read. */
export function CatalogMissing({ failed }: { failed: boolean }) {
  return (
    <div className="rounded-xl border bg-muted/40 p-8 text-center" role="alert">
      <h1 className="text-2xl font-semibold">{failed ? "The course could not be loaded" : "Course not found"}</h1>
      <p className="mt-2 text-muted-foreground">
        {failed ? "Something went wrong on our side. Reload the page in a moment." : "This course is not in the catalog (any more)."}
      </p>
      <Button asChild variant="outline" className="mt-4">
        <Link href={paths.catalog}>Browse the catalog</Link>
      </Button>
    </div>
  );
}
