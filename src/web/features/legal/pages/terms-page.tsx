import { LegalLayout } from "../components/legal-layout.js";

export function TermsPage() {
  return (
    <LegalLayout title="Terms of Service" effective="1/1/25">
      <section className="grid gap-2">
        <h2>1. Acceptance of these terms</h2>
        <p>By creating an account or using Lumora you agree to these Terms of Service. If you do not agree, do not use the platform.</p>
      </section>
      <section className="grid gap-2">
        <h2>2. Your account</h2>
        <p>
          You are responsible for your account and for everything done with it. Keep your password secret, give accurate information, and
          tell us at once if you think someone else has used your account.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>3. Appropriate use</h2>
        <p>You agree not to use Lumora to:</p>
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
          before relying on it. You are responsible for how you use the output.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>5. Payments and refunds</h2>
        <p>
          Early Access is a one-time payment. All payments are final and no refunds are given. If you are on a plan that renews, cancel
          before the next charge date to avoid being charged.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>6. Support</h2>
        <p>Support is provided only through the live chat inside the app.</p>
      </section>
      <section className="grid gap-2">
        <h2>7. Your data</h2>
        <p>You may ask us to delete your account and data at any time; we will do so as described in our Privacy Policy.</p>
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
