import type { HarnessEvent, HarnessName } from "../harness/events.js";
import type { ResolvedCliIo } from "./cli-io.js";

/** Turns the harness event stream into CLI output. One renderer per turn. */
export interface EventRenderer {
  /** Called once before the turn starts (the human renderer starts its spinner here). */
  begin(): void;
  /** Renders one event, in stream order; the last one is the terminal event. */
  render(event: HarnessEvent): void;
  /** A diagnostic from the CLI itself (e.g. "cancelling…"); always on stderr, never on stdout. */
  notice(message: string): void;
  /** Stops any animation. Called once at the end, also after an error. */
  end(): void;
}

/** What stdout carries without `--json`: the streamed text (`codex run`) or only the value (`codex exec`). */
export type TextOutput = "stream" | "value";

/** Makes the renderer of one turn from its validated output options. */
export type RendererFactory = (
  options: { json: boolean; color: boolean; harness: HarnessName },
  io: ResolvedCliIo,
  text: TextOutput,
) => EventRenderer;
