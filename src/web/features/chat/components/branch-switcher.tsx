import { ChevronLeft, ChevronRight } from "lucide-react";
import type { BranchPosition, Message } from "../../../../shared/contracts/chat.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { useSwitchBranch } from "../api.js";
import { useMessageActions } from "./message-actions.js";

/** A stored message of the branch shown knows its versions; a live one (being sent or written) does not yet. */
export type MaybeBranched = Message & { branch?: BranchPosition };

/**
 * "‹ 2 / 3 ›" on a message with other versions (made by edit or regenerate): shows the previous or next one,
 * and the conversation that follows it. Nothing for a message with one version.
 */
export function BranchSwitcher({ message }: { message: MaybeBranched }) {
  const actions = useMessageActions();
  const switcher = useSwitchBranch(message.chatId);
  const branch = message.branch;
  if (!actions || !branch || branch.count < 2) return null;
  const locked = actions.busy || switcher.isPending;
  const show = (position: number) => {
    const id = branch.siblingIds[position - 1];
    if (id === undefined) return;
    switcher.mutate(id, {
      onError: (error) => notify.error("Could not show that version", `${errorMessage(error)} Please try again.`),
    });
  };
  return (
    <fieldset aria-label="Versions of this message" className="m-0 flex min-w-0 items-center border-0 p-0 text-xs text-muted-foreground">
      <Button
        variant="ghost"
        size="icon"
        className="size-7 hover:text-foreground"
        aria-label="Previous version"
        title="Previous version"
        disabled={locked || branch.index <= 1}
        onClick={() => show(branch.index - 1)}
      >
        <ChevronLeft aria-hidden="true" />
      </Button>
      <span className="min-w-9 text-center tabular-nums" aria-live="polite">
        {switcher.isPending ? <Spinner className="size-3.5" label="Showing that version" /> : `${branch.index} / ${branch.count}`}
      </span>
      <Button
        variant="ghost"
        size="icon"
        className="size-7 hover:text-foreground"
        aria-label="Next version"
        title="Next version"
        disabled={locked || branch.index >= branch.count}
        onClick={() => show(branch.index + 1)}
      >
        <ChevronRight aria-hidden="true" />
      </Button>
    </fieldset>
  );
}
