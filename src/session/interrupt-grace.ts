/** After a harness's own interrupt request, how long a session waits for the interrupted turn's end before the kill. */
export const DEFAULT_INTERRUPT_GRACE_MS = 2_000;
