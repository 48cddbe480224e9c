import type { EndpointInput, EndpointOutput, EndpointShape } from "../../shared/contracts/endpoint.js";
import { ApiError, endpointUrl } from "./api-client.js";

/**
 * A multipart upload to an `upload: true` endpoint with its progress, which `fetch` cannot report: the same
 * address as `call()` (the contract's path), the same errors (`ApiError` with the server's message), and
 * `onProgress(sent, total)` as the body goes out. `signal` aborts it.
 */
export function uploadWithProgress<E extends EndpointShape & { upload: true }>(
  endpoint: E,
  input: EndpointInput<E> & { body: FormData },
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<EndpointOutput<E>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(endpoint.method, endpointUrl(endpoint, input));
    request.withCredentials = true;
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => {
      let body: unknown;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(body as EndpointOutput<E>);
        return;
      }
      const message =
        body && typeof body === "object" && typeof (body as { message?: unknown }).message === "string"
          ? (body as { message: string }).message
          : `${request.status}: ${request.statusText || "The upload failed"}`;
      reject(new ApiError(request.status, message, (body as object | undefined) ?? {}));
    };
    request.onerror = () => reject(new ApiError(0, "Could not reach the server. Check your connection and try again.", {}));
    request.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(input.body);
  });
}
