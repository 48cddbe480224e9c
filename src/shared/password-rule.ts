/**
 * The one password rule in words, for the hint under every box that sets a password (decision 030). Zod-free, so
 * the sign-in screens' small chunks can say it without loading the schemas; the rule itself is
 * `strongPasswordField` in contracts/fields.ts.
 */
export const PASSWORD_RULE_HINT = "At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character.";
