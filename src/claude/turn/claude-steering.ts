/**
 * Steering a running Claude Code turn: the guidance is written to stdin as a user message with a `uuid`
 * (`--replay-user-messages` is on), and Claude reports what became of it in `command_lifecycle` lines naming that
 * uuid. `started` before the turn's `result` means Claude folded it into the running turn (the model's next
 * request carries it); a message Claude would only run as a new turn after the `result` is never taken in,
 * because Rennet ends the session at the `result`.
 */
import { steerInputs } from "../../call/steer-inputs.js";
import { SteerError } from "../../harness/errors.js";
import { errorMessage } from "../../errors.js";
import { randomUuid } from "../../random-id.js";
import { CLAUDE_CAPABILITY_FROM, claudeCapabilities } from "../capabilities.js";
import { CLAUDE_UPGRADE_HINT } from "../errors.js";
import { readClaudeImage } from "../claude-images.js";
import { userMessage, type ClaudeImage } from "../stdin-messages.js";

interface Waiter {
  resolve(): void;
  reject(error: SteerError): void;
}

/** The text and images of a steer: every text input joined by blank lines, images read and encoded. */
export async function steerContent(
  input: unknown,
  cwd: string,
): Promise<{ text: string; images: ClaudeImage[] }> {
  const inputs = steerInputs(input, cwd);
  const texts = inputs.filter((i) => i.type === "text").map((i) => String(i.text));
  const files = inputs.filter((i) => i.type === "localImage").map((i) => String(i.path));
  const images = await Promise.all(
    files.map((file) =>
      readClaudeImage(file).catch((error: unknown) => {
        throw new SteerError("STEER_INPUT_INVALID", `session.steer(): ${errorMessage(error)}`, {
          cause: error,
        });
      }),
    ),
  );
  if (texts.length === 0)
    throw new SteerError("STEER_INPUT_INVALID", "session.steer(): Claude Code needs text with the images");
  return { text: texts.join("\n\n"), images };
}

/** The steers of one turn waiting for Claude's word, and the wait for the turn to start. */
export class ClaudeSteering {
  readonly #waiting = new Map<string, Waiter>();
  readonly #started: Promise<void>;
  #resolveStarted!: () => void;
  #rejectStarted!: (error: unknown) => void;

  constructor() {
    this.#started = new Promise((resolve, reject) => {
      this.#resolveStarted = resolve;
      this.#rejectStarted = reject;
    });
    this.#started.catch(() => undefined);
  }

  /** Resolves once the turn runs (its `system/init`); rejects once it has ended. */
  get started(): Promise<void> {
    return this.#started;
  }

  turnStarted(): void {
    this.#resolveStarted();
  }

  /** Resolves when Claude takes message `uuid` into the running turn; see {@link onLifecycle}. */
  expect(uuid: string): Promise<void> {
    return new Promise((resolve, reject) => this.#waiting.set(uuid, { resolve, reject }));
  }

  /** A `command_lifecycle` line: `started` (or `completed`) accepts the steer it names, `cancelled` refuses it. */
  onLifecycle(frame: Record<string, unknown>): void {
    const uuid = typeof frame.command_uuid === "string" ? frame.command_uuid : "";
    const waiter = this.#waiting.get(uuid);
    if (waiter === undefined) return;
    if (frame.state === "started" || frame.state === "completed") {
      this.#waiting.delete(uuid);
      waiter.resolve();
    } else if (frame.state === "cancelled") {
      this.#waiting.delete(uuid);
      waiter.reject(new SteerError("STEER_REFUSED", "claude cancelled the guidance before taking it in"));
    }
  }

  /**
   * Writes the guidance once the turn runs (`session` null when it does not) and resolves when Claude took it
   * in; rejects `STEER_UNSUPPORTED` for a release without `command_lifecycle`, `TURN_NOT_RUNNING` otherwise.
   */
  send(
    content: { text: string; images: ClaudeImage[] },
    version: string | null,
    state: string,
    session: { write(line: Record<string, unknown>): void } | null,
  ): Promise<void> {
    if (!claudeCapabilities(version).commandLifecycle)
      throw new SteerError(
        "STEER_UNSUPPORTED",
        `claude ${version ?? "(unknown version)"} does not acknowledge messages sent into a running turn ` +
          `(steering needs Claude Code ${CLAUDE_CAPABILITY_FROM.commandLifecycle} or newer; ${CLAUDE_UPGRADE_HINT})`,
      );
    if (session === null)
      throw new SteerError("TURN_NOT_RUNNING", `the turn is not running (${state}): nothing to steer`);
    const uuid = randomUuid();
    const accepted = this.expect(uuid);
    session.write(userMessage({ ...content, uuid }));
    return accepted;
  }

  /**
   * The turn ended (or is ending): every steer not yet taken in rejects with `TURN_NOT_RUNNING`, saying that its
   * message was written (Claude may have begun it as a turn of its own, which a kept thread keeps).
   */
  end(why: string): void {
    this.#rejectStarted(new SteerError("TURN_NOT_RUNNING", why));
    for (const [uuid, waiter] of this.#waiting) {
      this.#waiting.delete(uuid);
      waiter.reject(
        new SteerError(
          "TURN_NOT_RUNNING",
          `the turn ended before claude took the guidance in (${why}); it was already written, so claude may have ` +
            "begun it as a new turn, which Rennet ends at once: that turn's model request may have been made, and " +
            "with keepThread the thread may keep it (and a resumed turn sees it) though this turn never took it in",
        ),
      );
    }
  }
}
