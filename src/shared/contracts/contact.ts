import { z } from "zod";
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECTS } from "../contact-subjects.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { emailField, NAME_MAX, requiredText } from "./fields.js";

export const CONTACT_SENT = "Thanks for reaching out! We received your message and will reply by email.";

/** The contact form and POST /api/contact (name, email and message required; docs/product.md, Validation messages). */
export const contactFormSchema = z.object({
  name: requiredText("Full name", NAME_MAX),
  email: emailField,
  subject: z.enum(CONTACT_SUBJECTS, { error: "Choose a subject" }).default("general"),
  isUser: z.boolean({ error: "Choose yes or no" }).default(false),
  message: z
    .string({ error: "Message is required" })
    .trim()
    .min(1, "Message is required")
    .max(CONTACT_MESSAGE_MAX, `Message cannot exceed ${CONTACT_MESSAGE_MAX} characters`),
  /** A honeypot: hidden from people, filled by bots. A message that fills it is dropped quietly. */
  website: z.string().max(500).optional(),
});
export type ContactForm = z.input<typeof contactFormSchema>;

export const contactMessageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  subject: z.enum(CONTACT_SUBJECTS),
  isUser: z.boolean(),
  message: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const CONTACT_PAGE_SIZE = 50;

export const contactListQuerySchema = z.object({
  filter: z.enum(["all", "unread"], { error: "Filter must be all or unread" }).default("all"),
  cursor: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

export const contactApi = {
  send: endpoint({
    method: "POST",
    path: "/api/contact",
    access: "public",
    body: contactFormSchema,
    response: z.object({ message: z.string() }),
    status: 201,
  }),
};

export const adminContactApi = {
  /** Newest first, 50 a page (the next cursor in the paging header); `unread` counts all unread messages. */
  list: endpoint({
    method: "GET",
    path: "/api/admin/contact-messages",
    access: "admin",
    query: contactListQuerySchema,
    response: z.array(contactMessageSchema),
    kind: "paged",
  }),
  unreadCount: endpoint({
    method: "GET",
    path: "/api/admin/contact-messages/unread-count",
    access: "admin",
    response: z.object({ unread: z.number().int() }),
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/contact-messages/:id",
    access: "admin",
    params: idParamsSchema,
    body: z.object({ read: z.boolean({ error: "read must be true or false" }) }),
    response: contactMessageSchema,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/contact-messages/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
