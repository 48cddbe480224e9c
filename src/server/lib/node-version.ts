/**
 * The oldest Node.js the server runs on: the major the project ships (the `node` dev dependency, which `npm start` and
 * every `npm run` script use) and `engines.node` in package.json say the same (a unit test holds the three together).
 * An older Node lacks what the server uses (`process.threadCpuUsage`, for one, which reading a document needs), so it
 * refuses to start rather than failing later, one feature at a time.
 */
export const MIN_NODE_MAJOR = 24;

/** The refusal for a Node older than {@link MIN_NODE_MAJOR}, or null when `version` (as `process.versions.node`) will do. */
export function oldNodeRefusal(version: string): string | null {
  const major = Number.parseInt(version.split(".")[0] ?? "", 10);
  if (Number.isFinite(major) && major >= MIN_NODE_MAJOR) return null;
  return [
    `This server needs Node.js ${MIN_NODE_MAJOR} or newer; it was started with Node.js ${version}.`,
    `Start it with \`npm start\` (or \`npm run serve\`), which use the Node.js ${MIN_NODE_MAJOR} the project installs, or install Node.js ${MIN_NODE_MAJOR} LTS.`,
  ].join("\n");
}
