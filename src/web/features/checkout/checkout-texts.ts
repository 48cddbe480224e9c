/** The checkout's exact texts (docs/product.md, Exact texts), and those of the states added since. */
export const CHECKOUT_TEXTS = {
  setupFailed: "There was an error setting up the payment. Please try again.",
  missingClientSecret: "Invalid payment response (missing client secret)",
  paymentFailed: "An error occurred during payment processing.",
  registrationFailed: "There was an error creating your account.",
  upgradeFailed: "There was an error upgrading your account.",
  stripeNotLoaded: "Stripe's payment form could not be loaded. Check your connection and try again.",
  /** "Missing Registration Data". */
  missingRegistration: "Please complete the registration form first.",
  checkoutEnded: "This checkout has ended. Your details are filled in again: type your password to start again.",
  cancelled: "Your username and email are no longer held. Your details are filled in: type your password to start again.",
  stillProcessing:
    "Your payment is still processing. Stripe usually confirms it within minutes: check back later. If nothing changes within a day, contact support; your payment is safe.",
} as const;
