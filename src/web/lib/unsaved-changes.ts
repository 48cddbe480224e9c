import { useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { navigate, useBrowserLocation } from "wouter/use-browser-location";

/**
 * The one guard for work not saved (issue 29): a form with changes registers with `useUnsavedChanges`, and
 * whatever would throw the changes away asks first, through one dialog (`UnsavedChangesDialog`, mounted once by
 * the app): an in-app link or `navigate()` (the router's location hook, `useGuardedBrowserLocation`), the back
 * and forward buttons (a popstate is put back and asked about), closing or reloading the tab (`beforeunload`),
 * and a page opening another item in the same place (`confirmLeave` of the form, or of a `useLeaveScope`).
 *
 * The app routes with wouter, not react-router, so there is no `useBlocker`: wouter's location hook is
 * replaced by one whose navigate asks first (every `<Link>` and `useLocation()` navigate goes through it).
 */

/** What a form tells the guard. `save` (where a save is possible) answers true once saved, false when it could not (the form shows why). */
export type UnsavedChanges = { dirty: boolean; save?: () => Promise<boolean>; scope?: LeaveScope };

/** The question open: Save (when offered), Discard (`proceed`) or Keep editing (`stay`). */
export type LeaveRequest = { id: number; save?: () => Promise<boolean>; proceed: () => void; stay: () => void };

/** The forms that can be left from a place of a page (the lesson being edited): `confirmLeave` asks only them. */
export type LeaveScope = { confirmLeave: (next: () => void) => void };

type Entry = { current: UnsavedChanges };

const entries = new Set<Entry>();
const listeners = new Set<() => void>();
let open: LeaveRequest | null = null;
let asked = 0;

function show(request: LeaveRequest | null): void {
  open = request;
  for (const listener of listeners) listener();
}

/** Asks about each form in turn; `next` runs once every one was saved or discarded. */
function askEach(forms: UnsavedChanges[], next: () => void): void {
  const [form, ...rest] = forms;
  if (!form) {
    next();
    return;
  }
  asked += 1;
  show({
    id: asked,
    save: form.save,
    proceed: () => {
      show(null);
      askEach(rest, next);
    },
    stay: () => show(null),
  });
}

function dirtyForms(scope?: LeaveScope): UnsavedChanges[] {
  return [...entries].map((entry) => entry.current).filter((form) => form.dirty && (!scope || form.scope === scope));
}

/** Runs `next` at once when no form (of `scope`, or of the page) has unsaved changes; otherwise asks first. */
export function confirmLeave(next: () => void, scope?: LeaveScope): void {
  if (open) return;
  askEach(dirtyForms(scope), next);
}

/** The question open, for the dialog. */
export function useLeaveRequest(): LeaveRequest | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
    () => null,
  );
}

/** What `useUnsavedChanges` answers: `confirmLeave(next)` asks about this form alone; `saved()` says it has nothing unsaved now. */
export type UnsavedForm = LeaveScope & { saved: () => void };

/**
 * Registers a form while it is mounted. `dirty`: it has changes not saved (react-hook-form's
 * `formState.isDirty`); `save`: the dialog's Save (`saveForm`); `scope`: the place of the page it is edited in.
 * The answer's `confirmLeave(next)` asks about this form alone (closing its dialog, opening another item);
 * `saved()` is for a save that leaves at once (New Course opens the editor it made): the guard counts the form
 * as clean from then on, before React renders its reset.
 */
export function useUnsavedChanges(changes: UnsavedChanges): UnsavedForm {
  const entry = useRef(changes);
  useLayoutEffect(() => {
    entry.current = changes;
  });
  useLayoutEffect(() => {
    entries.add(entry);
    return () => {
      entries.delete(entry);
    };
  }, []);
  const [own] = useState<UnsavedForm>(() => ({
    confirmLeave: (next) => {
      if (open) return;
      askEach(entry.current.dirty ? [entry.current] : [], next);
    },
    saved: () => {
      entry.current = { ...entry.current, dirty: false };
    },
  }));
  return own;
}

/** A place of a page where one item is edited at a time (the lesson editor): opening another goes through `confirmLeave`. */
export function useLeaveScope(): LeaveScope {
  const [scope] = useState<LeaveScope>(() => {
    const self: LeaveScope = { confirmLeave: (next) => confirmLeave(next, self) };
    return self;
  });
  return scope;
}

/**
 * The dialog's Save for a react-hook-form form: runs its validation and `persist` (which shows its own errors
 * and answers whether it saved), so a refused field or a failed save keeps the person on the form.
 * `onRefused`: what the form does when a field is refused (show the tab it is on).
 */
export function saveForm<TInput extends FieldValues, TOutput>(
  form: UseFormReturn<TInput, unknown, TOutput>,
  persist: (values: TOutput) => Promise<boolean>,
  onRefused?: () => void,
): () => Promise<boolean> {
  return () =>
    new Promise<boolean>((resolve) => {
      void form.handleSubmit(
        async (values) => resolve(await persist(values)),
        () => {
          onRefused?.();
          resolve(false);
        },
      )();
    });
}

/** A mutation's promise as "saved or not": its own callbacks already show a failure. */
export function savedOrNot(promise: Promise<unknown>): Promise<boolean> {
  return promise.then(
    () => true,
    () => false,
  );
}

function pathOf(to: string | URL): string {
  return new URL(to, window.location.href).pathname;
}

/** wouter's navigate, asking first when the page would change and a form has unsaved changes. */
const guardedNavigate: typeof navigate = (to, options) => {
  if (pathOf(to) === window.location.pathname) navigate(to, options);
  else confirmLeave(() => navigate(to, options));
};

/** The router's location hook (`<Router hook={useGuardedBrowserLocation}>`): wouter's, with a navigate that asks first. */
export function useGuardedBrowserLocation(options?: { ssrPath?: string }): [string, typeof navigate] {
  const [location] = useBrowserLocation(options);
  return [location, guardedNavigate];
}

/** The entry shown, to put it back when back or forward would leave unsaved changes. */
let shown = { href: "", pathname: "", state: null as unknown };
/** The next popstate is one the guard made itself, after Discard or Save. */
let letNextPopThrough = false;

function rememberShown(): void {
  const { pathname, search, hash } = window.location;
  shown = { href: `${pathname}${search}${hash}`, pathname, state: window.history.state };
}

if (typeof window !== "undefined") {
  rememberShown();
  // wouter dispatches these after each pushState and replaceState.
  for (const type of ["pushState", "replaceState", "hashchange"]) window.addEventListener(type, rememberShown);
  // Capture, so it runs before wouter's own listener and can keep it from seeing a move that is put back.
  window.addEventListener(
    "popstate",
    (event) => {
      const passes = letNextPopThrough || window.location.pathname === shown.pathname || dirtyForms().length === 0;
      letNextPopThrough = false;
      if (passes) {
        rememberShown();
        return;
      }
      event.stopImmediatePropagation();
      // Back on the page the person was on; after Save or Discard the entry behind it is the one they went to.
      window.history.pushState(shown.state, "", shown.href);
      confirmLeave(() => {
        letNextPopThrough = true;
        window.history.back();
      });
    },
    { capture: true },
  );
  window.addEventListener("beforeunload", (event) => {
    if (dirtyForms().length === 0) return;
    event.preventDefault();
    // Older browsers ask only when returnValue is set.
    event.returnValue = "";
  });
}
