import { MAX_ID } from "../../shared/contracts/common.js";

/** A route's id: a positive whole number, or null (the page then redirects). */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && id <= MAX_ID ? id : null;
}
