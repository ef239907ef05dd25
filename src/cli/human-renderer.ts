import type {
  ApprovalResolvedEvent,
  FileChange,
  HarnessEvent,
  PassthroughReason,
  ToolCompletedEvent,
  ToolKind,
  ToolStartedEvent,
} from "../harness/events.js";
import { printableText, terminalText } from "../printable-text.js";
import { summarizeTerminal } from "./outcome-summary.js";
import { diffSummary, fileChangesSummary, planLine } from "./plan-and-diff.js";
import { StderrRenderer, type RendererOutput } from "./stderr-renderer.js";

/** How many lines of each tool's streamed output the human renderer shows. */
export const TOOL_OUTPUT_PREVIEW_LINES = 8;

/** How much of a tool's title (a command line, a path) and of a line of its output is shown. */
const MAX_TITLE_CHARS = 400;
const MAX_OUTPUT_LINE_CHARS = 240;
/** How much of a tool's status (`completed`, `failed`, `declined`, … as the agent sent it) is shown. */
const MAX_STATUS_CHARS = 80;

export interface HumanRendererOptions extends RendererOutput {
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
  fileRead: "⌕",
  search: "⌕",
  mcp: "⚙",
  app: "⚙",
  webFetch: "⌕",
  webSearch: "⌕",
  subagent: "⚙",
  plan: "☐",
  other: "⚙",
};

/**
 * Human mode: the assistant's text streams to stdout as it arrives (a newline after each completed
 * message); tool activity, warnings, passthrough counts and the final outcome line go to stderr. A spinner
 * runs on stderr until the first output.
 */
export class HumanRenderer extends StderrRenderer {
  readonly #stdoutIsTTY: boolean;
  #stdoutOpen = false;
  /** A terminal's stdout: a CR that ended the last delta, not written until the next text shows what follows. */
  #heldCr = "";
  #wroteText = false;
  #streamed = new Map<string, string>();
  #toolOutput = new Map<string, ToolOutputState>();
  #passthrough: Record<PassthroughReason, number> = { foreign: 0, unknown: 0 };
  #lastDiff: string | null = null;
  /** The turn's file changes, summarized when no aggregated diff came (Claude Code sends none). */
  #fileChanges: FileChange[] = [];

  constructor(options: HumanRendererOptions) {
    super(options);
    this.#stdoutIsTTY = options.stdoutIsTTY;
  }

  protected renderEvent(event: HarnessEvent): void {
    switch (event.type) {
      case "reasoning.delta":
        this.spinner.update("thinking");
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
        this.line(this.#toolStartedLine(event));
        return;
      case "tool.output":
        this.#toolOutputChunk(event.itemId, event.text);
        return;
      case "tool.completed":
        this.#showUnstreamedOutput(event);
        this.#flushToolOutput(event.itemId);
        this.line(this.#toolCompletedLine(event));
        return;
      case "passthrough":
        this.#passthrough[event.reason] += 1;
        return;
      case "plan.updated":
        this.replaceableLine("plan", planLine(event.steps), this.colors.dim);
        return;
      case "diff.updated":
        this.#lastDiff = event.diff;
        return;
      case "file.changed":
        this.#fileChanges.push(...event.changes);
        return;
      case "approval.resolved":
        // the request itself was shown by whoever asked (--ask)
        this.line(this.colors.dim(`· ${approvalResolvedLine(event)}`));
        return;
      case "terminal": {
        for (const itemId of this.#toolOutput.keys()) this.#flushToolOutput(itemId);
        // no message was streamed or completed, but turn/completed carried one: print it
        if (!this.#wroteText && event.finalMessage !== null) {
          this.#writeText(event.finalMessage);
          this.#endTextLine();
        }
        const changed =
          this.#lastDiff === null ? fileChangesSummary(this.#fileChanges) : diffSummary(this.#lastDiff);
        if (changed !== null) this.line(this.colors.dim(`· ${changed}`));
        const { foreign, unknown } = this.#passthrough;
        if (foreign + unknown > 0) {
          this.line(
            this.colors.dim(
              `· ${foreign + unknown} passthrough event${foreign + unknown === 1 ? "" : "s"} (${foreign} foreign, ${unknown} unknown); see --json`,
            ),
          );
        }
        for (const line of summarizeTerminal(event, this.colors)) this.line(line);
        return;
      }
      default:
        // usage, request.answered, approval.requested, item, native, reasoning.completed, turn.started: nothing to show
        return;
    }
  }

  override end(): void {
    super.end();
    this.#endTextLine();
  }

  /** When stdout is a terminal, an open line of assistant text is ended first. */
  protected override beforeLine(): void {
    if (this.#stdoutIsTTY) this.#endTextLine();
  }

  #writeText(text: string): void {
    if (text === "") return;
    this.spinner.stop();
    // a terminal gets the model's text escaped (nothing in it may drive the terminal); a pipe gets it as it is
    if (this.#stdoutIsTTY) {
      // a CR at the end of a delta is held: with the next delta's LF it is a CRLF, a line break
      const whole = this.#heldCr + text;
      this.#heldCr = whole.endsWith("\r") ? "\r" : "";
      const shown = terminalText(this.#heldCr === "" ? whole : whole.slice(0, -1));
      if (shown !== "") this.stdout.write(shown);
    } else this.stdout.write(text);
    this.wroteElsewhere();
    this.#wroteText = true;
    this.#stdoutOpen = !text.endsWith("\n");
  }

  #endTextLine(): void {
    if (this.#heldCr !== "") {
      this.#heldCr = "";
      this.stdout.write(terminalText("\r"));
    }
    if (!this.#stdoutOpen) return;
    this.stdout.write("\n");
    this.#stdoutOpen = false;
  }

  #toolStartedLine(event: ToolStartedEvent): string {
    const icon = TOOL_ICONS[event.tool];
    const title = printableText(event.title, MAX_TITLE_CHARS);
    switch (event.tool) {
      case "command":
        return this.colors.cyan(`${icon} ${title}`);
      case "fileChange":
        return this.colors.magenta(`${icon} edit ${title}`);
      case "mcp":
        return this.colors.blue(`${icon} mcp ${title}`);
      case "webSearch":
        return this.colors.blue(`${icon} search ${title}`);
      default:
        return this.colors.blue(`${icon} tool ${title}`);
    }
  }

  #toolCompletedLine(event: ToolCompletedEvent): string {
    // the agent's own word for the status: escaped and cut like a title
    const status = printableText(event.status ?? "completed", MAX_STATUS_CHARS);
    const ok =
      event.tool === "command" && event.exitCode !== null ? event.exitCode === 0 : status === "completed";
    const what = event.tool === "command" && event.exitCode !== null ? `exit ${event.exitCode}` : status;
    const detail =
      event.tool === "command" && event.exitCode !== null && status !== "completed" && status !== "failed"
        ? ` (${status})`
        : "";
    return `  ${ok ? this.colors.green(`↳ ${what}`) : this.colors.red(`↳ ${what}`)}${detail}`;
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
      this.line(this.colors.dim(`  │ ${printableText(line, MAX_OUTPUT_LINE_CHARS)}`));
    } else state.hidden += 1;
  }

  #flushToolOutput(itemId: string): void {
    const state = this.#toolOutput.get(itemId);
    if (!state) return;
    this.#toolOutput.delete(itemId);
    if (state.partial !== "") this.#toolOutputLine(state, state.partial);
    if (state.hidden > 0)
      this.line(this.colors.dim(`  │ … ${state.hidden} more line${state.hidden === 1 ? "" : "s"}`));
  }
}

const DECIDED_BY: Record<ApprovalResolvedEvent["decidedBy"], string> = {
  handler: "by you",
  default: "by default",
  deadline: "at the deadline",
  cancel: "as the turn ended",
};

/** `accepted by you (1.2 s)`. Pure. */
function approvalResolvedLine(event: ApprovalResolvedEvent): string {
  const verb = {
    accept: "accepted",
    acceptForSession: "accepted for this session",
    decline: "declined",
    cancel: "cancelled",
  }[event.decision];
  return `${verb} ${DECIDED_BY[event.decidedBy]} (${(event.durationMs / 1000).toFixed(1)} s)`;
}
