import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * A contract's zod schema as JSON Schema (`$schema` left out), for Fastify's serializer (route.ts) or the OpenAPI
 * document (openapi.ts): each drops, at every depth, the keywords that would mislead its reader (`drop`).
 */
export function jsonSchemaOf(
  schema: z.ZodType,
  options: { io: "input" | "output"; target: "draft-7" | "draft-2020-12" },
  drop: (key: string, value: unknown) => boolean,
): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { ...options, unrepresentable: "any" });
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) if (!drop(key, value)) out[key] = walk(value);
    return out;
  };
  return walk(rest) as JsonSchema;
}
