import { Pencil, Trash2 } from "lucide-react";
import { type AiPrompt, promptKeyUse } from "../../../../../../shared/contracts/ai-prompts.js";
import { Badge } from "../../../../../components/ui/badge.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card } from "../../../../../components/ui/card.js";

const EMPTY = 'No AI prompts found. Click "Add New Prompt" to create one.';

/** Key, Description, Prompt (truncated) and the row's actions; a key the product does not read is marked Unused. */
export function PromptsTable({
  prompts,
  onEdit,
  onDelete,
}: {
  prompts: AiPrompt[];
  onEdit: (prompt: AiPrompt) => void;
  onDelete: (prompt: AiPrompt) => void;
}) {
  // No table around the empty list: a row spanning the columns hidden on phones would squeeze the header.
  if (prompts.length === 0) {
    return (
      <Card>
        <p className="px-4 py-10 text-center text-sm break-words text-muted-foreground">{EMPTY}</p>
      </Card>
    );
  }
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table className="w-full table-fixed text-sm">
          <caption className="sr-only">Global AI prompts</caption>
          <thead className="border-b bg-muted/50 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 sm:w-[28%] md:w-[22%]">
                <span className="sm:hidden">Key and prompt</span>
                <span className="hidden sm:inline">Key</span>
              </th>
              <th scope="col" className="hidden px-4 py-3 md:table-cell md:w-[26%]">
                Description
              </th>
              <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                Prompt
              </th>
              <th scope="col" className="w-24 px-2 py-3 text-right">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {prompts.map((prompt) => (
              <tr key={prompt.id} className="border-b align-top last:border-b-0">
                <td className="px-4 py-3">
                  <div className="grid gap-1">
                    <code className="font-mono text-xs font-semibold break-all">{prompt.key}</code>
                    {promptKeyUse(prompt.key) ? null : (
                      <Badge variant="beta" title="Nothing in the product reads this key">
                        Unused
                      </Badge>
                    )}
                    {/* Phones: the prompt under its key, so the text has the row's width. */}
                    <p className="line-clamp-2 break-words text-muted-foreground sm:hidden">{prompt.prompt}</p>
                  </div>
                </td>
                <td className="hidden px-4 py-3 break-words md:table-cell">{prompt.description}</td>
                <td className="hidden px-4 py-3 sm:table-cell">
                  <p className="line-clamp-2 break-words text-muted-foreground" title={prompt.prompt}>
                    {prompt.prompt}
                  </p>
                </td>
                <td className="px-2 py-2 text-right whitespace-nowrap">
                  <Button variant="ghost" size="icon" className="size-9" aria-label={`Edit ${prompt.key}`} onClick={() => onEdit(prompt)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-9 text-destructive hover:text-destructive"
                    aria-label={`Delete ${prompt.key}`}
                    onClick={() => onDelete(prompt)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
