import type { EndpointInput, EndpointOutput, EndpointShape } from "../../shared/contracts/endpoint.js";
import type { ErrorBody } from "../../shared/contracts/errors.js";
import { ApiError, endpointUrl } from "./api-client.js";

export interface UploadOptions {
  /** Told the share of the body sent so far, 0 to 1 (the browser says it as the bytes leave). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function errorFrom(status: number, text: string): ApiError {
  let body: Partial<ErrorBody> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object") body = parsed as Partial<ErrorBody>;
  } catch {
    // Not JSON: the raw text becomes the message below.
  }
  const message = typeof body.message === "string" && body.message ? body.message : `${status}: ${text || "Upload failed"}`;
  return new ApiError(status, message, body);
}

/**
 * A multipart upload (`upload: true` endpoints) that reports its progress: `fetch` cannot tell how much of a body
 * has left, so this one call goes through XMLHttpRequest. Typed from the contract like `call()`, and failing the same
 * way (ApiError with the server's message; status 0 when the server could not be reached). An abort rejects with
 * the signal's reason (an AbortError).
 */
export function uploadWithProgress<E extends EndpointShape & { upload: true }>(
  endpoint: E,
  input: EndpointInput<E>,
  options: UploadOptions = {},
): Promise<EndpointOutput<E>> {
  const { onProgress, signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(endpoint.method, endpointUrl(endpoint, input));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    const abort = () => xhr.abort();
    signal?.addEventListener("abort", abort, { once: true });
    const done = () => signal?.removeEventListener("abort", abort);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as EndpointOutput<E>);
        } catch {
          reject(new ApiError(xhr.status, "The server's answer could not be read.", {}));
        }
      } else reject(errorFrom(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, "Could not reach the server. Check your connection and try again.", {}));
    };
    xhr.onabort = () => {
      done();
      reject(signal?.reason ?? new DOMException("The upload was stopped", "AbortError"));
    };
    xhr.send((input as { body: FormData }).body);
  });
}
