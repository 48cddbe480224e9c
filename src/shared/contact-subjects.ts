/**
 * The contact form's plain values (docs/product.md, Public pages), without schemas: the public contact page draws its
 * form from these on the first screen and loads the contract (`contracts/contact.ts`) only to check and send.
 */
export const CONTACT_SUBJECTS = ["general", "support", "billing", "partnership", "feedback"] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];
export const CONTACT_SUBJECT_LABELS: Record<ContactSubject, string> = {
  general: "General Inquiry",
  support: "Technical Support",
  billing: "Billing Question",
  partnership: "Partnership",
  feedback: "Feedback",
};

export const CONTACT_MESSAGE_MAX = 5000;
