/**
 * Waits for `promise` to settle or for `ms` to pass, whichever comes first, and leaves no timer behind.
 * Resolves true when the promise settled (fulfilled or rejected) in time, false on timeout. Never rejects.
 */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
