import type { DragEvent } from "react";

/** A chat row dragged onto a folder row (or the Chats heading) moves the chat there; the menu is the keyboard way. */
const CHAT_DRAG_TYPE = "application/x-chat-id";

export function startChatDrag(event: DragEvent, chatId: number) {
  event.dataTransfer.setData(CHAT_DRAG_TYPE, String(chatId));
  event.dataTransfer.effectAllowed = "move";
}

export const carriesChat = (event: DragEvent) => event.dataTransfer.types.includes(CHAT_DRAG_TYPE);

export function draggedChatId(event: DragEvent): number | null {
  const id = Number(event.dataTransfer.getData(CHAT_DRAG_TYPE));
  return Number.isInteger(id) && id > 0 ? id : null;
}
