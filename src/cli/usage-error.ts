/** A bad command line the user can fix; `rennet` prints the message and exits with code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code = "CLI_USAGE";
  /** The command whose `--help` explains the fix, e.g. `rennet codex run`. */
  readonly command: string | null;

  constructor(message: string, command: string | null = null) {
    super(message);
    this.command = command;
  }
}

/** Codex could not be found or started before any turn (reserved for discovery); exit code 3. */
export class CodexUnavailableError extends Error {
  override readonly name = "CodexUnavailableError";
  readonly code = "CODEX_UNAVAILABLE";
}
