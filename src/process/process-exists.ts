/**
 * Whether a process exists (for a negative id: whether any process is in that process group), asked with
 * `kill(id, 0)`. Only `ESRCH` means no; `EPERM` means one exists that we may not signal (another user's).
 */
export function processExists(id: number): boolean {
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
