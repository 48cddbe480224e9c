import { useQuery } from "@tanstack/react-query";
import { Lock, Settings2, Sparkles, UserRound } from "lucide-react";
import { useLocation } from "wouter";
import type { Chat } from "../../../../shared/contracts/chat.js";
import { hasEarlyAccess, UPGRADE_MESSAGE } from "../../../../shared/plan.js";
import { useEarlyAccessCheckoutPath } from "../../../components/get-early-access-button.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { Button } from "../../../components/ui/button.js";
import { usePaymentSettings } from "../../../domain/payment-settings.js";
import { PERSONALITIES_LOCKED, personalitiesQuery } from "../../../domain/personalities.js";
import { useCurrentUser } from "../../../domain/session.js";
import { errorMessage, isApiError } from "../../../lib/api-client.js";
import { cn } from "../../../lib/cn.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { useUpdateChat } from "../api.js";

const DEFAULT = "default";

/**
 * Who speaks in this chat: the default assistant or one of the user's training
 * personalities (Early Access). On the free plan it shows a lock and the way to
 * get them, and never asks for the list.
 */
export function PersonalityPicker({
  chat,
  disabled,
  onChoose,
}: {
  chat: Pick<Chat, "id" | "personalityId">;
  disabled: boolean;
  /**
   * A chat not created yet keeps the choice itself (it is saved with the first message), with the
   * personality's preferred model, which the chat then moves to (as the server does for a stored chat).
   */
  onChoose?: (personalityId: number | null, preferred: { aiPlatform: string; model: string } | null) => void;
}) {
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();
  const checkoutPath = useEarlyAccessCheckoutPath();
  const paymentsAvailable = usePaymentSettings().settings.paymentsAvailable;
  const entitled = hasEarlyAccess(user);
  const list = useQuery({ ...personalitiesQuery, enabled: entitled });
  const update = useUpdateChat();
  const locked = !entitled || (isApiError(list.error) && list.error.status === 403);
  const current = chat.personalityId === null ? null : list.data?.find((p) => p.id === chat.personalityId);
  // A chat keeps its personality when the plan ends; the menu then offers to go back to the default assistant.
  const name = chat.personalityId === null ? "Default assistant" : locked ? "Locked personality" : (current?.name ?? "Personality");

  const choose = (personalityId: number | null) => {
    if (personalityId === chat.personalityId) return;
    if (onChoose) {
      const chosen = personalityId === null ? undefined : list.data?.find((p) => p.id === personalityId);
      onChoose(personalityId, chosen?.platformSlug && chosen.model ? { aiPlatform: chosen.platformSlug, model: chosen.model } : null);
      return;
    }
    update.mutate(
      { id: chat.id, body: { personalityId } },
      { onError: (error) => notify.error("Could not change the personality", errorMessage(error)) },
    );
  };

  const Icon = locked ? Lock : UserRound;
  return (
    <LazyDropdownMenu
      trigger={
        <Button
          disabled={disabled || update.isPending}
          variant="outline"
          className="h-9 shrink-0 px-2.5 sm:max-w-44"
          aria-label={`Personality: ${name}`}
          title={`Personality: ${name}`}
        >
          <Icon aria-hidden="true" className={cn(chat.personalityId !== null && !locked && "text-primary")} />
          <span className="hidden truncate sm:inline">{name}</span>
        </Button>
      }
    >
      {(ui) => (
        <ui.DropdownMenuContent align="end" className="w-72 max-w-[calc(100vw-1rem)]">
          {locked ? (
            <>
              <ui.DropdownMenuLabel className="grid gap-1">
                <span className="flex items-center gap-1.5 font-medium">
                  <Lock className="size-3.5" aria-hidden="true" />
                  Personalities need Early Access
                </span>
                <span className="text-xs font-normal text-muted-foreground">
                  {PERSONALITIES_LOCKED} {UPGRADE_MESSAGE}
                </span>
              </ui.DropdownMenuLabel>
              <ui.DropdownMenuSeparator />
              {chat.personalityId !== null ? (
                <ui.DropdownMenuItem onSelect={() => choose(null)}>Use the default assistant</ui.DropdownMenuItem>
              ) : null}
              {paymentsAvailable ? (
                <ui.DropdownMenuItem onSelect={() => navigate(checkoutPath)}>
                  <Sparkles aria-hidden="true" />
                  Get Early Access
                </ui.DropdownMenuItem>
              ) : null}
              <ui.DropdownMenuItem onSelect={() => navigate(paths.personalities)}>About personalities...</ui.DropdownMenuItem>
            </>
          ) : (
            <>
              <ui.DropdownMenuLabel className="text-xs font-semibold text-muted-foreground">Personality</ui.DropdownMenuLabel>
              <ui.DropdownMenuRadioGroup
                value={chat.personalityId === null ? DEFAULT : String(chat.personalityId)}
                onValueChange={(value) => choose(value === DEFAULT ? null : Number(value))}
              >
                <ui.DropdownMenuRadioItem value={DEFAULT}>Default assistant</ui.DropdownMenuRadioItem>
                {(list.data ?? []).map((p) => (
                  <ui.DropdownMenuRadioItem key={p.id} value={String(p.id)}>
                    <span className="truncate">{p.name}</span>
                  </ui.DropdownMenuRadioItem>
                ))}
              </ui.DropdownMenuRadioGroup>
              {list.isPending ? <ui.DropdownMenuItem disabled>Loading personalities...</ui.DropdownMenuItem> : null}
              {list.isError ? <ui.DropdownMenuItem disabled>The personalities could not be loaded.</ui.DropdownMenuItem> : null}
              <ui.DropdownMenuSeparator />
              <ui.DropdownMenuItem onSelect={() => navigate(paths.personalities)}>
                <Settings2 aria-hidden="true" />
                Manage personalities...
              </ui.DropdownMenuItem>
            </>
          )}
        </ui.DropdownMenuContent>
      )}
    </LazyDropdownMenu>
  );
}
