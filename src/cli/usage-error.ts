import { RennetError } from "../errors.js";

/** A bad command line the user can fix; `rennet` prints the message and exits with code 2. */
export class UsageError extends RennetError<"CLI_USAGE"> {
  override readonly name = "UsageError";
  /** The command whose `--help` explains the fix, e.g. `rennet codex run`. */
  readonly command: string | null;

  constructor(message: string, command: string | null = null) {
    super("CLI_USAGE", message);
    this.command = command;
  }
}
