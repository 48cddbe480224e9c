import { useCallback, useRef, useState } from "react";

/**
 * One request at a time with its pending state, and callbacks for its outcome: what the sign-in screens
 * need of a mutation, without React Query (the visitors' small app has none, decision 017).
 */
export function useAction<Input, Output>(
  run: (input: Input) => Promise<Output>,
  { onSuccess, onError }: { onSuccess?: (output: Output) => void; onError?: (error: Error) => void } = {},
) {
  const [isPending, setPending] = useState(false);
  const latest = useRef({ run, onSuccess, onError });
  latest.current = { run, onSuccess, onError };
  const mutate = useCallback((input: Input) => {
    setPending(true);
    latest.current
      .run(input)
      .then(
        (output) => latest.current.onSuccess?.(output),
        (error: unknown) => latest.current.onError?.(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => setPending(false));
  }, []);
  return { mutate, isPending };
}
