/** The callbacks waiting on one signal, and the one listener that runs them. */
interface Subscribers {
  callbacks: Set<() => void>;
  listener: () => void;
}

const bySignal = new WeakMap<AbortSignal, Subscribers>();

/**
 * Runs `callback` once when `signal` aborts; the returned function unsubscribes. However many sessions share one
 * signal (an application's shutdown signal passed to every call), the signal carries at most one listener of
 * ours, removed when the last subscriber leaves: concurrent sessions never trip Node's
 * `MaxListenersExceededWarning`, and a long-lived signal keeps nothing of a finished session.
 * Callbacks run in subscription order; one that throws does not stop the others (the error is rethrown later).
 * `until`, when given, unsubscribes once it aborts (the subscriber's own lifetime).
 */
export function onAbort(signal: AbortSignal, callback: () => void, until?: AbortSignal): () => void {
  let subscribers = bySignal.get(signal);
  if (subscribers === undefined) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      bySignal.delete(signal);
      for (const run of [...callbacks]) {
        if (!callbacks.has(run)) continue; // unsubscribed by an earlier callback of this abort
        try {
          run();
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
      callbacks.clear();
    };
    subscribers = { callbacks, listener };
    bySignal.set(signal, subscribers);
    signal.addEventListener("abort", listener, { once: true });
  }
  const { callbacks, listener } = subscribers;
  const subscription = (): void => callback();
  callbacks.add(subscription);
  const unsubscribe = (): void => {
    if (!callbacks.delete(subscription) || callbacks.size > 0) return;
    if (bySignal.get(signal)?.callbacks === callbacks) bySignal.delete(signal);
    signal.removeEventListener("abort", listener);
  };
  until?.addEventListener("abort", unsubscribe, { once: true });
  return unsubscribe;
}
