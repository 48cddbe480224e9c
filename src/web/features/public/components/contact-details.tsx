import { Clock, Mail, MapPin, MessageCircle } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { usePlatformSettings } from "../../../domain/platform-settings.js";
import { useSignedInUser } from "../../../domain/public-reads.js";
import { loginPath, paths } from "../../../lib/paths.js";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

function Detail({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary">{icon}</span>
      <div className="grid min-w-0 gap-1">
        <h3 className="font-semibold">{title}</h3>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}

/**
 * The contact details (docs/product.md, Public pages): the live chat in the app (the preferred channel), the support email from
 * Platform Settings (left out when none is set), business hours and location.
 */
export function ContactDetails() {
  const user = useSignedInUser();
  const { settings } = usePlatformSettings();
  const email = settings.supportEmail;
  return (
    <section aria-labelledby="contact-details-heading" className="grid content-start gap-6">
      <h2 id="contact-details-heading" className="text-2xl font-bold tracking-tight">
        Ways to reach us
      </h2>
      <ul className="grid gap-6">
        <Detail icon={<MessageCircle className="size-5" aria-hidden="true" />} title="Live chat (preferred)">
          <p>The fastest way to reach us: the live chat inside the app, when you are signed in.</p>
          <p className="mt-1">
            {user ? (
              <Link href={paths.chat} className={linkClass}>
                Open the chat
              </Link>
            ) : (
              <Link href={loginPath(paths.chat)} className={linkClass}>
                Sign in to chat with us
              </Link>
            )}
          </p>
        </Detail>
        {email ? (
          <Detail icon={<Mail className="size-5" aria-hidden="true" />} title="Email">
            <a href={`mailto:${email}`} className={`${linkClass} break-all`}>
              {email}
            </a>
          </Detail>
        ) : null}
        <Detail icon={<Clock className="size-5" aria-hidden="true" />} title="Business hours">
          <p>Monday to Friday, 9:00 AM to 6:00 PM EST</p>
          <p>Weekend support for priority inquiries</p>
        </Detail>
        <Detail icon={<MapPin className="size-5" aria-hidden="true" />} title="Location">
          <p>Based in Denver, Colorado, serving customers worldwide</p>
        </Detail>
      </ul>
    </section>
  );
}
