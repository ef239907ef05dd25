import type { Readable, Writable } from "node:stream";
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "../harness/approvals.js";
import { printableText } from "../printable-text.js";
import { terminalLines } from "./terminal-lines.js";

/**
 * How a request is shown before the question: one line per entry, every text from the agent escaped
 * ({@link printableText}) so that nothing in it can rewrite what the terminal shows; what is being approved (a
 * command, its cwd, the paths) is never cut. Pure.
 */
function describeApproval(request: ApprovalRequest): string[] {
  const reason = request.reason ? [`  reason: ${shown(request.reason)}`] : [];
  switch (request.kind) {
    case "command":
      return [
        `? run: $ ${whole(request.argv.join(" ") || request.command)}`,
        ...(request.cwd ? [`  in ${whole(request.cwd)}`] : []),
        ...reason,
      ];
    case "fileChange": {
      const diff = request.diff === null ? [] : diffSummaryLines(request.diff);
      return [
        `? change files: ${whole(request.paths.join(", ")) || "(paths not given)"}`,
        ...diff,
        ...reason,
      ];
    }
    case "permissions":
      return [
        `? grant permissions: ${whole(request.network ? `network access to ${request.network.host}` : JSON.stringify(request.permissions))}`,
        ...reason,
      ];
    case "mcpToolCall":
      return [
        `? call MCP tool ${whole(`${request.server}.${request.tool ?? "?"}`)}`,
        ...(request.message ? [`  ${shown(request.message)}`] : []),
      ];
    case "tool":
      return [`? use ${whole(request.tool)}: ${whole(request.title)}`, ...reason];
    case "appTool":
      return [`? call app tool ${whole(request.tool)} ${whole(JSON.stringify(request.arguments) ?? "")}`];
  }
}

/** Text being approved, escaped and whole. */
const whole = (text: string): string => printableText(text, Number.POSITIVE_INFINITY);
/** Text about the request, escaped and cut. */
const shown = (text: string): string => printableText(text, 500);

/** At most a dozen lines of a diff, for the question. */
function diffSummaryLines(diff: string): string[] {
  const lines = diff.split("\n").filter((l) => l !== "");
  const shownLines = lines.slice(0, 12).map((l) => `  ${printableText(l, 200)}`);
  return lines.length > 12 ? [...shownLines, `  … ${lines.length - 12} more lines`] : shownLines;
}

/** What `a` (always, for this session) remembers a request by. Pure. */
function alwaysKey(request: ApprovalRequest): string {
  switch (request.kind) {
    case "command":
      return `command:${JSON.stringify(request.argv)}`;
    case "fileChange":
      return "fileChange";
    case "permissions":
      return `permissions:${JSON.stringify(request.permissions)}`;
    case "mcpToolCall":
      return `mcp:${request.server}.${request.tool ?? ""}`;
    case "tool":
      return `tool:${request.tool}`;
    case "appTool":
      return `appTool:${request.tool}`;
  }
}

const ANSWERS: ReadonlyMap<string, "y" | "n" | "a" | "c"> = new Map([
  ["y", "y"],
  ["yes", "y"],
  ["n", "n"],
  ["no", "n"],
  ["a", "a"],
  ["always", "a"],
  ["c", "c"],
  ["cancel", "c"],
]);

/** The `--ask` handlers and the function that stops reading the terminal. */
export interface TerminalApprovals {
  approvals: ApprovalOptions;
  dispose(): void;
}

/** {@link terminalApprovals} as a turn command is given it. */
export type TerminalApprovalsFactory = typeof terminalApprovals;

/**
 * Asks the person at the terminal about each approval request, one at a time: the request on stderr, then
 * `allow? [y]es / [n]o / [a]lways (this session) / [c]ancel the turn`, answered by a line on stdin. `a` accepts
 * and accepts the same request again without asking (the command with the same words, any file change, the
 * same permissions, the same MCP tool). `c` answers `cancel`, or, for a request that offers no `cancel` (a
 * permissions request), declines it and cancels the turn through `cancelTurn`. The end of stdin declines.
 */
export function terminalApprovals(
  io: { stdin: Readable; stderr: Writable },
  say: (line: string) => void,
  cancelTurn: (reason: string) => void = () => {},
): TerminalApprovals {
  const lines = terminalLines(io.stdin);
  const always = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();

  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    const acceptAlways: ApprovalDecision = request.decisions.includes("acceptForSession")
      ? "acceptForSession"
      : "accept";
    if (always.has(alwaysKey(request))) {
      say(`${describeApproval(request)[0] ?? ""} (allowed for this session)`);
      return "accept";
    }
    for (const line of describeApproval(request)) say(line);
    for (;;) {
      if (signal.aborted) return "cancel";
      io.stderr.write("  allow? [y]es / [n]o / [a]lways (this session) / [c]ancel the turn: ");
      const line = await lines.read(signal);
      if (line === null) {
        io.stderr.write("\n");
        return signal.aborted ? "cancel" : "decline";
      }
      const answer = ANSWERS.get(line.trim().toLowerCase());
      if (answer === "y") return "accept";
      if (answer === "n") return "decline";
      if (answer === "c") {
        if (request.decisions.includes("cancel")) return "cancel";
        cancelTurn("cancelled at the terminal");
        return "decline";
      }
      if (answer === "a") {
        always.add(alwaysKey(request));
        return acceptAlways;
      }
    }
  };
  return {
    approvals: {
      onRequest: (request, { signal }) => {
        const answer = queue.then(() => ask(request, signal));
        queue = answer.catch(() => undefined);
        return answer;
      },
    },
    dispose: () => lines.close(),
  };
}
