import { PhoneMenu } from "../../../components/phone-menu.js";
import { NavLinks } from "./nav-links.js";

/** The slide-in menu below the md breakpoint. */
export function MobileMenu({ current }: { current: string }) {
  return (
    <PhoneMenu title="Navigation" description="Go to the dashboard, the chat or the course builder.">
      {(close) => (
        <nav aria-label="Mobile">
          <NavLinks vertical current={current} onNavigate={close} />
        </nav>
      )}
    </PhoneMenu>
  );
}
