import { z } from "zod";

/** Ids are PostgreSQL `serial` (32-bit): anything larger is refused up front instead of failing in SQL. */
export const MAX_ID = 2_147_483_647;

/** A paging cursor that is not one of ours (400). */
export const INVALID_CURSOR = "Invalid cursor";

/** A row id sent in a JSON body. */
export const idField = z.number().int().positive().max(MAX_ID);

/** A row id in a path or query string (text, coerced). */
export const idText = z.coerce.number().int().positive().max(MAX_ID);

/** `/:id` of every resource. */
export const idParamsSchema = z.object({ id: idText });
