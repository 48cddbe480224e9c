import { usePlatformName } from "../../../domain/platform-settings.js";
import { LegalLayout } from "../components/legal-layout.js";

export function PrivacyPage() {
  const name = usePlatformName();
  return (
    <LegalLayout title="Privacy Policy" effective="1/1/25">
      <section className="grid gap-2">
        <h2>1. Data we collect</h2>
        <ul>
          <li>Account data: username, name, email address and profile photo.</li>
          <li>Content you create: chats, messages, courses and training personalities.</li>
          <li>Preferences such as your default AI model and response settings.</li>
          <li>Payment records: what you bought and when. Card details are handled by Stripe and never reach our servers.</li>
          <li>Messages you send us through the contact form.</li>
          <li>Technical data: sign-in activity, IP address and browser type, used to keep your account secure.</li>
        </ul>
      </section>
      <section className="grid gap-2">
        <h2>2. How AI data is handled</h2>
        <p>
          To answer you, the messages of a chat (with any files you attach, and the instructions of the training personality you chose) are
          sent to the AI provider of the model you use, for example OpenAI, Anthropic Claude, Deepseek or Mistral. When you generate a
          course, its topic, niche and outline are sent the same way. Providers process this data under their own terms. Do not share
          sensitive personal information in chats.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>3. How we use your data</h2>
        <p>We use your data to run the platform, to secure your account and to support you. We do not sell your personal data.</p>
      </section>
      <section className="grid gap-2">
        <h2>4. Children</h2>
        <p>{name} is not for children under 13, and we do not knowingly collect data from them.</p>
      </section>
      <section className="grid gap-2">
        <h2>5. Deleting your data</h2>
        <p>
          You can change or remove your profile data in your account settings, or ask us through the live chat to delete your account and
          data.
        </p>
      </section>
    </LegalLayout>
  );
}
