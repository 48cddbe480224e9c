/** Issue 30: "With no embedding model configured, retrieval is full-text only. The library says so." */
export const FULL_TEXT_ONLY =
  "Your files are searched by their words only (full text): no embedding model is set up for search by meaning. An administrator can choose one in AI Chat Settings.";
