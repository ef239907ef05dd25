import type { Writable } from "node:stream";
import type {
  HarnessEvent,
  PassthroughReason,
  ToolCompletedEvent,
  ToolKind,
  ToolStartedEvent,
} from "../harness/events.js";
import type { Colors } from "./color.js";
import type { EventRenderer } from "./event-renderer.js";
import { summarizeTerminal } from "./outcome-summary.js";
import type { Spinner } from "./spinner.js";

/** How many lines of each tool's streamed output the human renderer shows. */
export const TOOL_OUTPUT_PREVIEW_LINES = 8;

export interface HumanRendererOptions {
  stdout: Writable;
  stderr: Writable;
  colors: Colors;
  spinner: Spinner;
  /** When stdout is a terminal, an open line of assistant text is ended before writing to stderr. */
  stdoutIsTTY: boolean;
}

interface ToolOutputState {
  shown: number;
  hidden: number;
  partial: string;
}

const TOOL_ICONS: Record<ToolKind, string> = {
  command: "$",
  fileChange: "✎",
  mcp: "⚙",
  dynamic: "⚙",
  webSearch: "⌕",
};

/**
 * Human mode: the assistant's text streams to stdout as it arrives (a newline after each completed
 * message); tool activity, warnings, passthrough counts and the final outcome line go to stderr. A spinner
 * runs on stderr until the first output.
 */
export class HumanRenderer implements EventRenderer {
  readonly #out: Writable;
  readonly #err: Writable;
  readonly #c: Colors;
  readonly #spinner: Spinner;
  readonly #stdoutIsTTY: boolean;
  #stdoutOpen = false;
  #wroteText = false;
  #streamed = new Map<string, string>();
  #toolOutput = new Map<string, ToolOutputState>();
  #passthrough: Record<PassthroughReason, number> = { foreign: 0, unknown: 0 };

  constructor(options: HumanRendererOptions) {
    this.#out = options.stdout;
    this.#err = options.stderr;
    this.#c = options.colors;
    this.#spinner = options.spinner;
    this.#stdoutIsTTY = options.stdoutIsTTY;
  }

  begin(): void {
    this.#spinner.start("starting codex");
  }

  render(event: HarnessEvent): void {
    switch (event.type) {
      case "session.started":
        this.#spinner.update(`waiting for ${event.model ?? "the model"}`);
        return;
      case "reasoning.delta":
        this.#spinner.update("thinking");
        return;
      case "text.delta":
        this.#writeText(event.text);
        this.#streamed.set(event.itemId, (this.#streamed.get(event.itemId) ?? "") + event.text);
        return;
      case "text.completed": {
        const streamed = this.#streamed.get(event.itemId) ?? "";
        this.#streamed.delete(event.itemId);
        if (streamed === "") this.#writeText(event.text);
        else if (event.text.startsWith(streamed)) this.#writeText(event.text.slice(streamed.length));
        this.#endTextLine();
        return;
      }
      case "tool.started":
        this.#line(this.#toolStartedLine(event));
        return;
      case "tool.output":
        this.#toolOutputChunk(event.itemId, event.text);
        return;
      case "tool.completed":
        this.#showUnstreamedOutput(event);
        this.#flushToolOutput(event.itemId);
        this.#line(this.#toolCompletedLine(event));
        return;
      case "warning":
        this.#line(this.#c.yellow(`! ${event.message}`));
        return;
      case "passthrough":
        this.#passthrough[event.reason] += 1;
        return;
      case "terminal": {
        for (const itemId of this.#toolOutput.keys()) this.#flushToolOutput(itemId);
        // no message was streamed or completed, but turn/completed carried one: print it
        if (!this.#wroteText && event.finalMessage !== null) {
          this.#writeText(event.finalMessage);
          this.#endTextLine();
        }
        const { foreign, unknown } = this.#passthrough;
        if (foreign + unknown > 0) {
          this.#line(
            this.#c.dim(
              `· ${foreign + unknown} passthrough event${foreign + unknown === 1 ? "" : "s"} (${foreign} foreign, ${unknown} unknown); see --json`,
            ),
          );
        }
        for (const line of summarizeTerminal(event, this.#c)) this.#line(line);
        return;
      }
      default:
        // usage, request.answered, item, native, reasoning.completed, turn.started: nothing to show
        return;
    }
  }

  notice(message: string): void {
    this.#line(this.#c.yellow(message));
  }

  end(): void {
    this.#spinner.stop();
    this.#endTextLine();
  }

  #writeText(text: string): void {
    if (text === "") return;
    this.#spinner.stop();
    this.#out.write(text);
    this.#wroteText = true;
    this.#stdoutOpen = !text.endsWith("\n");
  }

  #endTextLine(): void {
    if (!this.#stdoutOpen) return;
    this.#out.write("\n");
    this.#stdoutOpen = false;
  }

  /** One whole line on stderr. */
  #line(text: string): void {
    this.#spinner.stop();
    if (this.#stdoutIsTTY) this.#endTextLine();
    this.#err.write(`${text}\n`);
  }

  #toolStartedLine(event: ToolStartedEvent): string {
    const icon = TOOL_ICONS[event.tool];
    switch (event.tool) {
      case "command":
        return this.#c.cyan(`${icon} ${event.title}`);
      case "fileChange":
        return this.#c.magenta(`${icon} edit ${event.title}`);
      case "mcp":
        return this.#c.blue(`${icon} mcp ${event.title}`);
      case "webSearch":
        return this.#c.blue(`${icon} search ${event.title}`);
      default:
        return this.#c.blue(`${icon} tool ${event.title}`);
    }
  }

  #toolCompletedLine(event: ToolCompletedEvent): string {
    const status = event.status ?? "completed";
    const ok =
      event.tool === "command" && event.exitCode !== null ? event.exitCode === 0 : status === "completed";
    const what = event.tool === "command" && event.exitCode !== null ? `exit ${event.exitCode}` : status;
    const detail =
      event.tool === "command" && event.exitCode !== null && status !== "completed" && status !== "failed"
        ? ` (${status})`
        : "";
    return `  ${ok ? this.#c.green(`↳ ${what}`) : this.#c.red(`↳ ${what}`)}${detail}`;
  }

  /**
   * codex 0.171.0 streams only what a command prints after its first poll; output printed before that (all of
   * it, for a quick command) arrives only in the completed item's `aggregatedOutput`. When nothing was shown
   * for the command, show that, bounded like streamed output.
   */
  #showUnstreamedOutput(event: ToolCompletedEvent): void {
    if (event.tool !== "command") return;
    const state = this.#toolOutput.get(event.itemId);
    if (state && (state.shown > 0 || state.hidden > 0 || state.partial !== "")) return;
    const aggregated = event.item.aggregatedOutput;
    if (typeof aggregated !== "string" || aggregated === "") return;
    this.#toolOutputChunk(event.itemId, aggregated);
  }

  #toolOutputChunk(itemId: string, text: string): void {
    const state = this.#toolOutput.get(itemId) ?? { shown: 0, hidden: 0, partial: "" };
    this.#toolOutput.set(itemId, state);
    const lines = (state.partial + text).split(/\r?\n/);
    state.partial = lines.pop() ?? "";
    for (const line of lines) this.#toolOutputLine(state, line);
  }

  #toolOutputLine(state: ToolOutputState, line: string): void {
    if (state.shown < TOOL_OUTPUT_PREVIEW_LINES) {
      state.shown += 1;
      this.#line(this.#c.dim(`  │ ${line}`));
    } else state.hidden += 1;
  }

  #flushToolOutput(itemId: string): void {
    const state = this.#toolOutput.get(itemId);
    if (!state) return;
    this.#toolOutput.delete(itemId);
    if (state.partial !== "") this.#toolOutputLine(state, state.partial);
    if (state.hidden > 0)
      this.#line(this.#c.dim(`  │ … ${state.hidden} more line${state.hidden === 1 ? "" : "s"}`));
  }
}
