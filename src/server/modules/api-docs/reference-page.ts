import { apiDocsApi } from "../../../shared/contracts/api-docs.js";

/** What the reference page loads: Swagger UI's own files (swagger-ui-dist) and the few lines that start it. */
export const REFERENCE_ASSETS = {
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "start.js": {
    text: `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(apiDocsApi.openapi.path)}, dom_id: "#reference", deepLinking: true, filter: true, withCredentials: true });\n`,
    type: "text/javascript; charset=utf-8",
  },
} as const;

/** The page's own policy: scripts and styles from the app only (Swagger UI sets inline styles), calls to the app only. */
export const REFERENCE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

export function referencePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>API reference · Lumora</title>
<link rel="stylesheet" href="/api-reference/swagger-ui.css">
</head>
<body>
<main id="reference"></main>
<script src="/api-reference/swagger-ui-bundle.js"></script>
<script src="/api-reference/start.js"></script>
</body>
</html>
`;
}
