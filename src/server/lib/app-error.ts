import type { SignedOutReason } from "../../shared/signed-out.js";

const STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A connection test whose settings did not work (the outside service refused or was not reached). */
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;

export type AppErrorCode = keyof typeof STATUS;

/** The one error a service throws; the error handler turns it into `{ message }` and a status. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly extra: {
      retryAfterSeconds?: number;
      errors?: Record<string, string>;
      reason?: SignedOutReason;
      opensAt?: string;
      /**
       * A 429's kind, for the OpenAI-compatible endpoints' error codes (decision 051): an allowance spent until it
       * resets (`quota`), or a wait (`rate`: calls running, tokens held, a provider's rate limit).
       */
      limit?: "quota" | "rate";
    } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.statusCode = STATUS[code];
  }
}
