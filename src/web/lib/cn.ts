import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names and lets the last Tailwind utility of a kind win. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
