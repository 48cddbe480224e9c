import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  emailApi as api,
  type EmailTemplate,
  type EmailTemplateBody,
  type SmtpTestBody,
  type TemplateTestBody,
  type UpdateEmailTemplateBody,
} from "../../../../shared/contracts/email.js";
import { call } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";

/** GET /api/admin/email-templates: every template, by name. */
export const emailTemplatesQuery = endpointQuery(api.listTemplates, {});

const byName = (list: EmailTemplate[]) => [...list].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);

/** POST /api/admin/email-templates. */
export function useCreateTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EmailTemplateBody) => call(api.createTemplate, { body }),
    onSuccess: (saved) => client.setQueryData(emailTemplatesQuery.queryKey, (old) => (old ? byName([...old, saved]) : old)),
  });
}

/** PATCH /api/admin/email-templates/{id}. */
export function useUpdateTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateEmailTemplateBody }) => call(api.updateTemplate, { params: { id }, body }),
    onSuccess: (saved) =>
      client.setQueryData(emailTemplatesQuery.queryKey, (old) => (old ? byName(old.map((t) => (t.id === saved.id ? saved : t))) : old)),
  });
}

/** DELETE /api/admin/email-templates/{id}. */
export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(api.removeTemplate, { params: { id } }),
    onSuccess: (_data, id) => client.setQueryData(emailTemplatesQuery.queryKey, (old) => old?.filter((t) => t.id !== id)),
  });
}

/** POST /api/admin/email-templates/{id}/test: rendered and stored in the outbox (or the test inbox). */
export function useTestTemplate() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TemplateTestBody }) => call(api.testTemplate, { params: { id }, body }),
  });
}

/** POST /api/admin/smtp-test: a real connection (and a real message with a recipient). */
export function useSmtpTest() {
  return useMutation({ mutationFn: (body: SmtpTestBody) => call(api.smtpTest, { body }) });
}
