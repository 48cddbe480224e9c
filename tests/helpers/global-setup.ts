import { pgliteTemplate, usingPostgres } from "./test-database.js";

/** Once before the test files: the migrated empty database they start from (made only when missing). */
export default async function setup() {
  if (!usingPostgres()) await pgliteTemplate();
}
