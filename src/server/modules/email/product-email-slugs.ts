/** The emails the product sends; their templates are seeded and editable on the Email Settings page. */
export const PRODUCT_EMAILS = {
  welcome: "welcome",
  passwordChanged: "password-changed",
  passwordReset: "password-reset",
  earlyAccessReceipt: "early-access-receipt",
} as const;
