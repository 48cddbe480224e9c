import { lazy } from "react";

const load = () => import("./register-form.js");

/** The Register tab (react-hook-form, zod, plan cards) loads apart from the Login tab. */
export const LazyRegisterForm = lazy(() => load().then((m) => ({ default: m.RegisterForm })));

/** The Register tab while registration is closed: its message is a contract's constant (a module with zod). */
export const LazyRegistrationClosed = lazy(() => import("./registration-closed.js").then((m) => ({ default: m.RegistrationClosed })));

/** Starts the download early, e.g. when the pointer reaches the Register tab. */
export function preloadRegisterForm(): void {
  void load();
}
