/**
 * A catalogue course's address (issue 33, decision 044): `/catalog/<kebab-title>-<id>`. The id at the end is what finds
 * the course, so no column holds the slug; the title part follows the course's current title, and an address with an
 * older title (or none) is moved (301) to the current one.
 */
const MAX_WORDS_LENGTH = 60;

/** "Intro to C++ & Rust: Part 2!" → "intro-to-c-rust-part-2" (ASCII letters and digits; "course" when nothing is left). */
export function kebabTitle(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const cut = words.slice(0, MAX_WORDS_LENGTH).replace(/-+$/, "");
  return cut || "course";
}

/** The current slug of a course. */
export function courseSlug(title: string, id: number): string {
  return `${kebabTitle(title)}-${id}`;
}

/** The course id a slug names (its last `-<digits>`, or only digits), or null. */
export function courseIdOfSlug(slug: string): number | null {
  const match = /^(?:[a-z0-9-]*-)?([1-9][0-9]{0,9})$/.exec(slug);
  const id = match?.[1] ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : null;
}

/**
 * A catalogue course's cover outside `/api/` (which robots.txt keeps crawlers out of): its pages' `og:image`, so a link
 * preview can fetch it (decision 060). `/api/catalog/<slug>/cover` answers the same bytes.
 */
export function catalogCoverPath(slug: string): string {
  return `/catalog/${slug}/cover`;
}
