import { CircleCheck, Send } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_LABELS, CONTACT_SUBJECTS } from "../../../../shared/contact-subjects.js";
import type { ContactForm as ContactFormInput } from "../../../../shared/contracts/contact.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { NativeSelect } from "../../../components/ui/native-select.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { call, errorMessage, isApiError } from "../../../lib/api-client.js";

/**
 * The contract (its schema and endpoint) loads when someone starts filling the form in, not with the page:
 * the contact page's first screen stays within its budget (decision 015). The check is the same schema the
 * server uses.
 */
const loadContract = () => import("../../../../shared/contracts/contact.js");

const FIELDS = ["name", "email", "subject", "isUser", "message"] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

const isField = (key: unknown): key is Field => typeof key === "string" && (FIELDS as readonly string[]).includes(key);

/** What went wrong, and what to do next; what was typed stays in the form. */
function failureText(error: unknown): string {
  if (isApiError(error) && error.status === 429) return errorMessage(error);
  const reason = isApiError(error) ? errorMessage(error) : "We could not send your message.";
  return `${reason} Your message is still here: send it again when you are ready.`;
}

function formInput(form: HTMLFormElement): ContactFormInput {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    name: text("name"),
    email: text("email"),
    subject: text("subject") as ContactFormInput["subject"],
    isUser: text("isUser") === "yes",
    message: text("message"),
    website: text("website"),
  };
}

function Sent({ email, onAnother }: { email: string; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="grid justify-items-center gap-4 py-8 text-center" role="status">
      <CircleCheck className="size-12 text-success" aria-hidden="true" />
      <h3 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
        Message sent
      </h3>
      <p className="max-w-md text-muted-foreground">
        Thanks for reaching out! We received your message and will reply to <span className="font-medium text-foreground">{email}</span>.
      </p>
      <Button variant="outline" onClick={onAnother}>
        Send another message
      </Button>
    </div>
  );
}

/**
 * The contact form (docs/product.md, Public pages), checked with the shared schema and sent to POST /api/contact.
 * The browser's own controls (select, radios) keep it light. `website` is a honeypot: hidden from people
 * and from assistive technology, left empty by them.
 */
export function ContactForm() {
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<{ name: string; email: string } | null>(null);
  const [kept, setKept] = useState({ name: "", email: "" });
  const [checked, setChecked] = useState(0);

  // After a check, the first field with an error gets the focus.
  useEffect(() => {
    if (checked > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [checked]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const input = formInput(event.currentTarget);
    setFailure(null);
    setPending(true);
    try {
      const { contactApi, contactFormSchema } = await loadContract();
      const parsed = contactFormSchema.safeParse(input);
      if (!parsed.success) {
        const found: FieldErrors = {};
        for (const issue of parsed.error.issues) {
          const field = issue.path[0];
          if (isField(field)) found[field] ??= issue.message;
        }
        setErrors(found);
        setChecked((count) => count + 1);
        return;
      }
      setErrors({});
      await call(contactApi.send, { body: parsed.data });
      setSent({ name: parsed.data.name, email: parsed.data.email });
    } catch (error) {
      const fromServer = isApiError(error) ? error.fieldErrors : {};
      const placed = Object.fromEntries(Object.entries(fromServer).filter(([field]) => isField(field))) as FieldErrors;
      if (Object.keys(placed).length > 0) {
        setErrors(placed);
        setChecked((count) => count + 1);
      } else setFailure(failureText(error));
    } finally {
      setPending(false);
    }
  };

  if (sent) {
    return (
      <Sent
        email={sent.email}
        onAnother={() => {
          setKept(sent);
          setSent(null);
        }}
      />
    );
  }

  const fieldProps = (field: Field) => ({
    id: `contact-${field === "isUser" ? "is-user" : field}`,
    name: field,
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `contact-${field}-error` : undefined,
    onChange: () => errors[field] && setErrors(({ [field]: _gone, ...rest }) => rest),
  });

  return (
    <form ref={form} noValidate onSubmit={onSubmit} onFocus={() => void loadContract()} aria-label="Contact form" className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Full Name" autoComplete="name" error={errors.name} defaultValue={kept.name} {...fieldProps("name")} />
        <TextField
          label="Email Address"
          type="email"
          autoComplete="email"
          error={errors.email}
          defaultValue={kept.email}
          {...fieldProps("email")}
        />
      </div>
      <FormField id="contact-subject" label="Subject" error={errors.subject}>
        <NativeSelect defaultValue="general" {...fieldProps("subject")}>
          {CONTACT_SUBJECTS.map((subject) => (
            <option key={subject} value={subject}>
              {CONTACT_SUBJECT_LABELS[subject]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Are you currently a user?</legend>
        <div className="flex gap-6">
          {(["yes", "no"] as const).map((value) => (
            <label key={value} className="flex cursor-pointer items-center gap-2 text-sm">
              <input
                type="radio"
                name="isUser"
                value={value}
                defaultChecked={value === "no"}
                className="size-4 accent-primary"
                onChange={() => errors.isUser && setErrors(({ isUser: _gone, ...rest }) => rest)}
              />
              {value === "yes" ? "Yes" : "No"}
            </label>
          ))}
        </div>
        {errors.isUser ? <p className="text-sm font-medium text-destructive">{errors.isUser}</p> : null}
      </fieldset>
      <FormField id="contact-message" label="Message" error={errors.message}>
        <Textarea rows={6} maxLength={CONTACT_MESSAGE_MAX} placeholder="How can we help?" {...fieldProps("message")} />
      </FormField>
      {/* The honeypot: off screen, out of the tab order and hidden from screen readers. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {failure ? <Alert variant="destructive">{failure}</Alert> : null}
      <Button type="submit" size="lg" disabled={pending} className="sm:justify-self-start">
        {pending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
        {pending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}
