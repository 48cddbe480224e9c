import { apiDocsApi, type ReferenceAssetName } from "../../../shared/contracts/api-docs.js";
import { fillPath } from "../../../shared/contracts/endpoint.js";

/** What the reference page loads: Swagger UI's own files (swagger-ui-dist) and the few lines that start it. */
export const REFERENCE_ASSETS = {
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  // Swagger UI's own colours that fail WCAG AA contrast (issue 32: axe found 17 on this page), darkened to pass 4.5:1.
  "contrast.css": {
    text: [
      ".swagger-ui .opblock.opblock-get .opblock-summary-method{background:#1d4ed8}",
      ".swagger-ui .opblock.opblock-post .opblock-summary-method{background:#15803d}",
      ".swagger-ui .opblock.opblock-put .opblock-summary-method{background:#c2410c}",
      ".swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#b91c1c}",
      ".swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#0f766e}",
      ".swagger-ui .opblock.opblock-head .opblock-summary-method{background:#7e22ce}",
      ".swagger-ui .opblock.opblock-deprecated .opblock-summary-method{background:#4b5563}",
      ".swagger-ui .info .title small{background:#4b5563}",
      ".swagger-ui .info .title small.version-stamp{background:#3f6212}",
      ".swagger-ui .info .url,.swagger-ui .info a{color:#1d4ed8}",
      ".swagger-ui .btn.authorize{border-color:#15803d;color:#15803d}",
      ".swagger-ui .btn.authorize svg{color:#15803d;fill:#15803d}",
      // The examples' numbers (highlight.js's agate theme, drawn as inline styles) on their #333 ground.
      '.swagger-ui .microlight span[style*="rgb(211, 99, 99)"],.swagger-ui .microlight span[style*="#d36363"]{color:#f59e9e!important}',
      "",
    ].join("\n"),
    type: "text/css; charset=utf-8",
  },
  // No deep links: Swagger UI draws each as a link inside the operation's button, which a keyboard and a screen reader
  // meet as a control inside a control (axe's nested-interactive).
  "start.js": {
    text: `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(apiDocsApi.openapi.path)}, dom_id: "#reference", deepLinking: false, filter: true, withCredentials: true });\n`,
    type: "text/javascript; charset=utf-8",
  },
} as const satisfies Record<ReferenceAssetName, { type: string } & ({ file: string } | { text: string })>;

/** Where the page reads one of its files. */
const assetUrl = (name: ReferenceAssetName) => fillPath(apiDocsApi.asset.path, { name });

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
<link rel="stylesheet" href="${assetUrl("swagger-ui.css")}">
<link rel="stylesheet" href="${assetUrl("contrast.css")}">
</head>
<body>
<main id="reference"></main>
<script src="${assetUrl("swagger-ui-bundle.js")}"></script>
<script src="${assetUrl("start.js")}"></script>
</body>
</html>
`;
}
