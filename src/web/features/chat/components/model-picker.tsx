import { ChevronDownIcon } from "lucide-react";
import { type KeyboardEvent, useRef, useState } from "react";
import { modelName } from "../../../../shared/model-catalog.js";
import { modelValue } from "../../../../shared/model-choice.js";
import { platformModels, platformName } from "../../../domain/ai-models.js";
import { cn } from "../../../lib/cn.js";
import type { ModelPickerProps } from "./model-picker-select.js";

const loadSelect = () => import("./model-picker-select.js");
type SelectModule = Awaited<ReturnType<typeof loadSelect>>;

/** Keys that open a select (as Radix's trigger handles them). */
const OPENING_KEYS = new Set(["Enter", " ", "ArrowDown", "ArrowUp"]);

/** What the closed picker shows: the model's readable name, as the open list names it. */
function shownChoice({ platforms, aiPlatform, model }: Pick<ModelPickerProps, "platforms" | "aiPlatform" | "model">): string {
  const platform = platforms.find((p) => p.slug === aiPlatform);
  const id = model ?? platform?.defaultModel;
  const value = modelValue(aiPlatform, id);
  const offered = platforms.some((p) => platformModels(p).some((m) => modelValue(p.slug, m) === value));
  if (offered && id) return modelName(id);
  const name = model ? `${modelName(model)} (${platformName(aiPlatform, platforms)})` : platformName(aiPlatform, platforms);
  return `${name}${platforms.length > 0 ? " (unavailable)" : ""}`;
}

/**
 * The model picker (`model-picker-select.tsx`: Radix Select, grouped by platform). Only its closed button is on
 * the chat's first screen (decision 021): the list's code loads when a pointer or the focus reaches it, and a
 * press before it arrives (pointer, Enter, Space, arrows) opens the list as soon as it does.
 */
export function ModelPicker(props: ModelPickerProps) {
  const [select, setSelect] = useState<SelectModule | null>(null);
  const [openAtLoad, setOpenAtLoad] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const focusAtLoad = useRef(false);
  const load = () => {
    void loadSelect().then(
      (module) => {
        focusAtLoad.current ||= button.current !== null && document.activeElement === button.current;
        setSelect(() => module);
      },
      () => undefined, // offline: the button stays, and the next hover or press tries again
    );
  };
  if (select) return <select.ModelPickerSelect {...props} defaultOpen={openAtLoad} focusTrigger={focusAtLoad.current && !openAtLoad} />;
  const disabled = props.disabled || props.platforms.length === 0;
  const open = () => {
    setOpenAtLoad(true);
    load();
  };
  return (
    <button
      ref={button}
      type="button"
      role="combobox"
      aria-label="Model"
      aria-expanded={false}
      aria-autocomplete="none"
      data-state="closed"
      disabled={disabled}
      onPointerEnter={load}
      onFocus={load}
      onPointerDown={(event) => {
        if (event.button === 0 && !event.ctrlKey) open();
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        open();
      }}
      className={cn(
        "flex h-9 w-[11.5rem] min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-background px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 sm:w-56 dark:bg-input/20 [&>span]:truncate",
      )}
    >
      <span style={{ pointerEvents: "none" }}>{shownChoice(props)}</span>
      <ChevronDownIcon className="size-4 opacity-60" aria-hidden="true" />
    </button>
  );
}
