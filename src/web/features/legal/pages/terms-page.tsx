import { Link } from "wouter";
import { usePlatformName } from "../../../domain/platform-settings.js";
import { paths } from "../../../lib/paths.js";
import { LegalLayout } from "../components/legal-layout.js";

export function TermsPage() {
  const name = usePlatformName();
  return (
    <LegalLayout title="Terms of Service" effective="1/1/25">
      <section className="grid gap-2">
        <h2>1. Acceptance of these terms</h2>
        <p>
          By creating an account or using {name} you agree to these Terms of Service and to our{" "}
          <Link href={paths.privacy}>Privacy Policy</Link>. If you do not agree, do not use the platform.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>2. Your account</h2>
        <p>
          You are responsible for your account and for everything done with it. Keep your password secret, give accurate information, and
          tell us at once if you think someone else has used your account. You must be at least 13 years old to use {name}.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>3. Appropriate use</h2>
        <p>You agree not to use {name} to:</p>
        <ul>
          <li>break any law or infringe anyone's rights, including intellectual property rights;</li>
          <li>create or spread content that is harmful, harassing, hateful or deceptive;</li>
          <li>attempt to disrupt, overload or gain unauthorised access to the platform or other accounts.</li>
        </ul>
        <p>We may suspend or close accounts that break these rules.</p>
      </section>
      <section className="grid gap-2">
        <h2>4. AI-generated content</h2>
        <p>
          Answers, courses and other content produced by AI models may be inaccurate, incomplete or out of date. Check important information
          before relying on it. You are responsible for how you use the output, including what you publish or sell.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>5. Payments and refunds</h2>
        <ul>
          <li>Early Access is a one-time payment, not a subscription.</li>
          <li>All payments are final, including Early Access payments: no refunds are given.</li>
          <li>If you are on a plan that renews, cancel before the next charge date to avoid being charged again.</li>
        </ul>
      </section>
      <section className="grid gap-2">
        <h2>6. Support</h2>
        <p>Support is provided only through the live chat inside the app, available when you are signed in.</p>
      </section>
      <section className="grid gap-2">
        <h2>7. Your data</h2>
        <p>
          You may ask us to delete your account and data at any time; we will do so as described in our{" "}
          <Link href={paths.privacy}>Privacy Policy</Link>.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>8. Changes and governing law</h2>
        <p>
          We may update these terms; continued use after a change means you accept it. These terms are governed by the laws of the State of
          Colorado, United States.
        </p>
      </section>
    </LegalLayout>
  );
}
