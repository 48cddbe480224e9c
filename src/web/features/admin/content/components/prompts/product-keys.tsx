import { Plus } from "lucide-react";
import { type AiPrompt, PRODUCT_PROMPT_KEYS } from "../../../../../../shared/contracts/ai-prompts.js";
import { Badge } from "../../../../../components/ui/badge.js";
import { Button } from "../../../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../../../components/ui/card.js";

/** The keys the product reads, what each one steers, and whether a prompt is set for it. */
export function ProductKeys({ prompts, onAdd }: { prompts: AiPrompt[] | undefined; onAdd: (key: string) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Keys the product reads</CardTitle>
        <CardDescription>A prompt saved under one of these keys steers that part of the product. Any other key is unused.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 sm:grid-cols-2">
          {PRODUCT_PROMPT_KEYS.map(({ key, steers }) => {
            const set = prompts?.some((p) => p.key === key);
            return (
              <li key={key} aria-label={key} className="grid content-start gap-2 rounded-lg border p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <code className="font-mono text-xs font-semibold">{key}</code>
                  {prompts === undefined ? null : set ? (
                    <Badge variant="new">Set</Badge>
                  ) : (
                    <Button variant="outline" size="sm" onClick={() => onAdd(key)} aria-label={`Add a prompt for ${key}`}>
                      <Plus aria-hidden="true" />
                      Add
                    </Button>
                  )}
                </div>
                <p className="text-xs text-muted-foreground">{steers}</p>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
