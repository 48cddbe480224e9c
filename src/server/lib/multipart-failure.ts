import { AppError } from "./app-error.js";

/** The words of one upload's refusals (each reader names what it takes: a photo, a .json file, a library file). */
export interface MultipartWords {
  tooLarge: () => AppError;
  tooManyParts: string;
  notMultipart: string;
  malformed: string;
}

/**
 * What went wrong while reading a multipart body, as the client's failure. @fastify/multipart reports its limits with
 * codes (413), and busboy reports a body it cannot parse ("Unexpected end of form", "Malformed part header",
 * "Multipart: Boundary not found") as a plain Error, which the error handler would turn into a 500.
 * Everything thrown while reading comes from parsing the request's bytes, so only an error that says it is a 5xx stays one.
 */
export function multipartFailure(error: unknown, words: MultipartWords): unknown {
  if (error instanceof AppError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: string; statusCode?: number };
  switch (code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return words.tooLarge();
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return new AppError("PAYLOAD_TOO_LARGE", words.tooManyParts);
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return new AppError("UNSUPPORTED_MEDIA_TYPE", words.notMultipart);
  }
  if (typeof statusCode === "number" && statusCode >= 500) return error;
  return new AppError("BAD_REQUEST", words.malformed);
}
