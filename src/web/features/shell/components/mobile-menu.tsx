import { Menu } from "lucide-react";
import { useState } from "react";
import { Logo } from "../../../components/logo.js";
import { Button } from "../../../components/ui/button.js";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "../../../components/ui/sheet.js";
import { NavLinks } from "./nav-links.js";

/** The slide-in menu below the md breakpoint. */
export function MobileMenu({ current }: { current: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
          <Menu className="size-5" aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent>
        <div className="pr-8">
          <Logo />
        </div>
        <SheetTitle className="sr-only">Navigation</SheetTitle>
        <SheetDescription className="sr-only">Go to the dashboard or the course builder.</SheetDescription>
        <nav aria-label="Mobile">
          <NavLinks vertical current={current} onNavigate={() => setOpen(false)} />
        </nav>
      </SheetContent>
    </Sheet>
  );
}
