/**
 * Avatar initials (docs/product.md, Accounts): first letters of the words of the
 * name, at most 2; with no name, the first 2 letters of the username uppercased;
 * with no user, "U".
 */
export function getInitials(user: { name?: string | null; username?: string | null } | null | undefined): string {
  if (!user) return "U";
  const words = (user.name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((word) => Array.from(word)[0] ?? "")
      .join("")
      .toUpperCase();
  }
  const username = (user.username ?? "").trim();
  if (username) return Array.from(username).slice(0, 2).join("").toUpperCase();
  return "U";
}
