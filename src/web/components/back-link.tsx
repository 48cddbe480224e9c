import { ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { Button } from "./ui/button.js";

/** "Back to ..." above a screen that belongs to another (a course, its lesson, its quiz). */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit">
      <Link href={href}>
        <ArrowLeft aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}
