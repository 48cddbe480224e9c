import { oldNodeRefusal } from "./lib/node-version.js";

// Imported first by main.ts, so it runs before any of the server's own code: an older Node stops here, saying which to use.
const refusal = oldNodeRefusal(process.versions.node);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
