/**
 * Pieces of a ChatGPT export (`conversations.json`) written as text, for files too large to build as objects first:
 * the chat import's load tests and bench:embedded-isolation.
 */

/** Filler words at least `length` characters long; a message's text is `${i} ${filler}` cut to its length. */
export function fillerWords(length: number): string {
  return "lorem ipsum dolor sit amet consectetur adipiscing elit ".repeat(Math.ceil(length / 56) + 1);
}

/** One entry of a conversation's `mapping`. */
export function mappingNode(id: string, message: object, parent: string | null): string {
  return `${JSON.stringify(id)}:${JSON.stringify({ id, message, parent, children: [] })}`;
}

/** One conversation: its head fields, then the mapping of `nodes` (as `mappingNode` writes them). */
export function conversationJson(head: { title: string; create_time: number; current_node: string | null }, nodes: string[]): string {
  return `${JSON.stringify(head).slice(0, -1)},"mapping":{${nodes.join(",")}}}`;
}

/** The file: an array of conversations. */
export function exportFile(conversations: string[]): Buffer {
  return Buffer.from(`[${conversations.join(",")}]`);
}
