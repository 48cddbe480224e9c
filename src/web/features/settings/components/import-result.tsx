import type { ImportResult } from "../../../../shared/contracts/chat-transfer.js";

const chatsWord = (n: number) => `${n.toLocaleString()} ${n === 1 ? "chat" : "chats"}`;

/** "Imported 12 chats. Skipped 1: "Title" (It has no messages to import.)" */
export function importSummary(result: ImportResult): string {
  const imported = `Imported ${chatsWord(result.imported)}.`;
  if (result.skipped.length === 0) return imported;
  return `${imported} Skipped ${result.skipped.length}:`;
}

/** What an import did: how many chats arrived, and each one skipped with its reason. */
export function ImportResultText({ result }: { result: ImportResult }) {
  return (
    <div className="grid gap-1">
      <p className="font-medium">{importSummary(result)}</p>
      {result.skipped.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5 text-muted-foreground">
          {result.skipped.slice(0, 20).map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: titles may repeat; the list never reorders.
            <li key={index}>
              "{item.title}": {item.reason}
            </li>
          ))}
          {result.skipped.length > 20 ? <li>and {result.skipped.length - 20} more.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
