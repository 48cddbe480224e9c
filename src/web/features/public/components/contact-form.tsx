import { zodResolver } from "@hookform/resolvers/zod";
import { CircleCheck, Send } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_SUBJECT_LABELS,
  CONTACT_SUBJECTS,
  type ContactForm as ContactFormInput,
  type ContactSubject,
  contactFormSchema,
} from "../../../../shared/contracts/contact.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { RadioGroup, RadioGroupItem } from "../../../components/ui/radio-group.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { useSendContactMessage } from "../api.js";

type ContactFormOutput = z.output<typeof contactFormSchema>;

const FIELDS = ["name", "email", "subject", "isUser", "message"] as const;
const EMPTY: ContactFormInput = { name: "", email: "", subject: "general", isUser: false, message: "", website: "" };

/** What went wrong, and what to do next; what was typed stays in the form. */
function failureText(error: unknown): string {
  if (isApiError(error) && error.status === 429) return errorMessage(error);
  return `${errorMessage(error)} Your message is still here: send it again when you are ready.`;
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
 * The contact form (spec 002 section 3), checked with the shared schema and sent to POST /api/contact.
 * `website` is a honeypot: hidden from people and from assistive technology, left empty by them.
 */
export function ContactForm() {
  const form = useForm<ContactFormInput, unknown, ContactFormOutput>({ resolver: zodResolver(contactFormSchema), defaultValues: EMPTY });
  const send = useSendContactMessage();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((body) => {
    setFailure(null);
    send.mutate(body, {
      onSuccess: () => setSentTo(body.email),
      onError: (error) => {
        const placed = applyServerFieldErrors(form.setError, error, FIELDS);
        if (placed.length === 0) setFailure(failureText(error));
      },
    });
  });

  if (sentTo) {
    return (
      <Sent
        email={sentTo}
        onAnother={() => {
          const { name, email } = form.getValues();
          form.reset({ ...EMPTY, name, email });
          send.reset();
          setSentTo(null);
        }}
      />
    );
  }

  const fieldProps = (id: string, error?: string) => ({
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Contact form" className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField id="contact-name" label="Full Name" autoComplete="name" error={errors.name?.message} {...form.register("name")} />
        <TextField
          id="contact-email"
          label="Email Address"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register("email")}
        />
      </div>
      <Controller
        control={form.control}
        name="subject"
        render={({ field, fieldState }) => (
          <FormField id="contact-subject" label="Subject" error={fieldState.error?.message}>
            <Select value={field.value} onValueChange={(value) => field.onChange(value as ContactSubject)}>
              <SelectTrigger {...fieldProps("contact-subject", fieldState.error?.message)} onBlur={field.onBlur}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CONTACT_SUBJECTS.map((subject) => (
                  <SelectItem key={subject} value={subject}>
                    {CONTACT_SUBJECT_LABELS[subject]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        )}
      />
      <Controller
        control={form.control}
        name="isUser"
        render={({ field, fieldState }) => (
          <div className="grid gap-2">
            <p id="contact-is-user-label" className="text-sm font-medium">
              Are you currently a user?
            </p>
            <RadioGroup
              aria-labelledby="contact-is-user-label"
              value={field.value ? "yes" : "no"}
              onValueChange={(value) => field.onChange(value === "yes")}
              className="flex gap-6"
            >
              {(["yes", "no"] as const).map((value) => (
                <div key={value} className="flex items-center gap-2">
                  <RadioGroupItem id={`contact-is-user-${value}`} value={value} />
                  <Label htmlFor={`contact-is-user-${value}`} className="font-normal">
                    {value === "yes" ? "Yes" : "No"}
                  </Label>
                </div>
              ))}
            </RadioGroup>
            {fieldState.error?.message ? <p className="text-sm font-medium text-destructive">{fieldState.error.message}</p> : null}
          </div>
        )}
      />
      <FormField id="contact-message" label="Message" error={errors.message?.message}>
        <Textarea
          rows={6}
          maxLength={CONTACT_MESSAGE_MAX}
          placeholder="How can we help?"
          {...fieldProps("contact-message", errors.message?.message)}
          {...form.register("message")}
        />
      </FormField>
      {/* The honeypot: off screen, out of the tab order and hidden from screen readers. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...form.register("website")} />
      </div>
      {failure ? <Alert variant="destructive">{failure}</Alert> : null}
      <Button type="submit" size="lg" disabled={send.isPending} className="sm:justify-self-start">
        {send.isPending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
        {send.isPending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}
