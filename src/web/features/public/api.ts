import { useMutation } from "@tanstack/react-query";
import { type ContactForm, contactApi } from "../../../shared/contracts/contact.js";
import { call } from "../../lib/api-client.js";

/** POST /api/contact: the contact form's message (stored, and emailed to support through the outbox). */
export function useSendContactMessage() {
  return useMutation({ mutationFn: (body: ContactForm) => call(contactApi.send, { body }) });
}
