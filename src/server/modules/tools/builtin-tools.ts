import { BUILTIN_TOOLS } from "../../../shared/contracts/tools.js";
import type { StoredCitation } from "../../db/schema/index.js";
import type { Who } from "../../lib/who.js";
import { excerptOf, fileLabel } from "../knowledge/retrieval/numbered-sources.js";
import { hasSearchablePieces, type RetrievalDeps, retrievePassages } from "../knowledge/retrieval/retrieve.js";

/** What a built-in tool's call is given: the caller (its files only) and where the library is. */
export interface BuiltinCallDeps {
  who: Who;
  retrieval: RetrievalDeps;
  /** The number its first passage takes: after every source the reply was already given (decision 055). */
  firstSourceNumber: number;
}

/** A built-in tool's answer: the text the model reads, and the passages numbered in it (search_files). */
export interface BuiltinAnswer {
  text: string;
  sources?: StoredCitation[];
}

export interface BuiltinTool {
  id: string;
  name: string;
  description: string;
  /** The name the model calls it by. */
  modelName: string;
  inputSchema: Record<string, unknown>;
  /** It reads the user's library: a reply a token started has it only with files:read (decision 056). */
  readsLibrary?: true;
  run(deps: BuiltinCallDeps, args: Record<string, unknown>): Promise<BuiltinAnswer>;
}

export const NO_MATCH = "No passages of the user's files match.";
export const EMPTY_LIBRARY = "The user's library has no files to search yet: nothing was found.";

/** The passages a search_files call answers with, at most (a few thousand tokens, as a reply's own retrieval). */
const SEARCH_BUDGET_TOKENS = 3_000;
const SEARCH_LIMIT = 6;

/** The app's own tools (issue 34): every user may switch them on. */
export const BUILTIN_TOOL_LIST: readonly BuiltinTool[] = [
  {
    id: BUILTIN_TOOLS.searchFiles,
    name: "Search my files",
    description:
      "Search the user's own uploaded files (their knowledge library) for passages about a question. Returns the best passages with their file names.",
    modelName: "search_files",
    readsLibrary: true,
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "What to look for, in a few words." } },
      required: ["query"],
      additionalProperties: false,
    },
    async run({ who, retrieval, firstSourceNumber }, args) {
      const query = typeof args.query === "string" ? args.query.trim() : "";
      if (!query) throw new Error("query is required");
      // The whole library of the caller (decision 037's retrieval, scoped to the user in SQL).
      const passages = await retrievePassages(retrieval, {
        userId: who.id,
        query,
        budgetTokens: SEARCH_BUDGET_TOKENS,
        limit: SEARCH_LIMIT,
      });
      if (passages.length === 0) return { text: (await hasSearchablePieces(retrieval, who.id)) ? NO_MATCH : EMPTY_LIBRARY };
      // Numbered, each with its file (and page), as a reply's own sources are shown to the model (decision 037), from
      // the reply's next free number, so the reply cites them as [n] like its own sources (decision 055).
      const numbered = passages.map((p, i) => ({ n: firstSourceNumber + i, ...p }));
      return {
        text: numbered.map((p) => `[${p.n}] ${fileLabel(p.fileName, p.page)}\n${p.content}`).join("\n\n"),
        sources: numbered.map((p) => ({
          n: p.n,
          fileId: p.fileId,
          fileName: p.fileName,
          page: p.page,
          excerpt: excerptOf(p.content),
          chunkId: p.chunkId,
        })),
      };
    },
  },
  {
    id: BUILTIN_TOOLS.currentTime,
    name: "Current date and time",
    description: "The current date and time (UTC, ISO 8601).",
    modelName: "current_time",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    async run() {
      const now = new Date();
      return { text: `${now.toISOString()} (${now.toUTCString()})` };
    },
  },
];
