import { OPENAI_MESSAGES } from "../../../shared/contracts/openai.js";
import { modelValue, parseModelValue } from "../../../shared/model-choice.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { listUsablePlatformRows } from "../ai-platforms/ai-platforms-service.js";
import { type PlatformDeps, type PlatformRow, toChatPlatform } from "../ai-platforms/platform-view.js";
import { type ResolvedModel, resolveModel } from "../ai-platforms/resolve-platform.js";
import { readEmbeddingConfig } from "../knowledge/embedding-settings-service.js";
import { adminChosenModel } from "../platform-settings/forced-model.js";
import { readPlatformSettings } from "../platform-settings/reader.js";

type Options = { db: Db; deps: PlatformDeps; who: Who };

/** One model as `/v1` names it: `platform-slug/model`, its platform, and when the platform was added. */
interface V1Model {
  id: string;
  slug: string;
  created: number;
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * The chat models this user may use now, by the chat picker's rule: the usable platforms and the models the plan
 * allows (`toChatPlatform`), or, with model selection turned off in Platform Settings, the administrator's model
 * alone (`adminChosenModel`).
 */
async function chatModels({ db, deps, who }: Options): Promise<{ models: V1Model[]; rows: PlatformRow[] }> {
  const [rows, settings] = await Promise.all([listUsablePlatformRows({ db, deps }), readPlatformSettings(db)]);
  const models = rows.flatMap((row) =>
    toChatPlatform(row, who).models.map((model) => ({ id: modelValue(row.slug, model), slug: row.slug, created: seconds(row.createdAt) })),
  );
  const forced = await adminChosenModel({ db, deps, who, settings });
  if (!forced) return { models, rows };
  return { models: models.filter((model) => model.id === modelValue(forced.slug, forced.model)), rows };
}

/** GET /v1/models: the chat models this user may use, then the embedding model when one is set up. */
export async function listV1Models(options: Options) {
  const [{ models, rows }, embedding] = await Promise.all([chatModels(options), readEmbeddingConfig(options.db, options.deps)]);
  const data = models.map((model) => ({ id: model.id, object: "model" as const, created: model.created, owned_by: model.slug }));
  if (embedding) {
    const slug = parseModelValue(embedding.key).slug;
    const row = rows.find((candidate) => candidate.slug === slug);
    data.push({ id: embedding.key, object: "model", created: row ? seconds(row.createdAt) : 0, owned_by: slug });
  }
  return { object: "list" as const, data };
}

/** The 400 OpenAI gives for a model of the other kind (`invalid_request_error`, param `model`; decision 061). */
function otherKind(message: string): AppError {
  return new AppError("BAD_REQUEST", message, { errors: { model: message } });
}

/** Whether `id` is one of the chat models this user may use now (what GET /v1/models lists first). */
export async function isV1ChatModel(options: Options & { id: string }): Promise<boolean> {
  return (await chatModels(options)).models.some((model) => model.id === options.id);
}

/** POST /v1/embeddings naming one of this user's chat models: 400, it is a chat model (decision 061). */
export function notAnEmbeddingModel(id: string): AppError {
  return otherKind(OPENAI_MESSAGES.notAnEmbeddingModel(id));
}

/**
 * The chat model a request names, resolved as a reply resolves it (`resolveModel`: the key, the plan), or 404
 * `model_not_found` when this user may not use it: unknown, turned off, locked by the plan, or not the administrator's
 * model while model selection is off. What cannot be told apart from outside is one answer, as OpenAI gives it. The
 * embedding model GET /v1/models lists is a 400 saying it is not a chat model, as OpenAI answers (decision 061).
 */
export async function v1ChatModel(options: Options & { id: string }): Promise<ResolvedModel> {
  const { models } = await chatModels(options);
  if (!models.some((model) => model.id === options.id)) {
    const embedding = await readEmbeddingConfig(options.db, options.deps);
    if (embedding?.key === options.id) throw otherKind(OPENAI_MESSAGES.notAChatModel(options.id));
    throw new AppError("NOT_FOUND", OPENAI_MESSAGES.unknownModel(options.id));
  }
  const { slug, model } = parseModelValue(options.id);
  return resolveModel({ db: options.db, deps: options.deps, who: options.who, slug, modelId: model });
}
