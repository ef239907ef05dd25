import { RennetError } from "../errors.js";

/** The most of an unexpected `initialize` answer a message quotes. */
const QUOTED_CHARS = 200;

/**
 * The executable answered `initialize`, but not as `codex app-server` does (a result object with a
 * `userAgent` string): it is not codex, or a program that only shares its name. `.answer` is the result as sent.
 */
export class NotCodexError extends RennetError<"NOT_CODEX"> {
  override readonly name = "NotCodexError";
  constructor(readonly answer: unknown) {
    const shown = JSON.stringify(answer) ?? String(answer);
    super(
      "NOT_CODEX",
      `the executable answered initialize with ${shown.length > QUOTED_CHARS ? `${shown.slice(0, QUOTED_CHARS)}…` : shown}, ` +
        "not with codex app-server's {userAgent, …}: it is not a codex executable. Pass the path of a codex " +
        "executable (`which codex`), or install Codex (npm i -g @openai/codex).",
    );
  }
}
