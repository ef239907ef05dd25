import type { Failure, TerminalEvent, TurnLimit, Usage } from "../harness/events.js";
import { printableText } from "../printable-text.js";
import type { Colors } from "./color.js";
import { harnessText, type HarnessText } from "./harness-text.js";

/** How much of one line of the summary (a message, a line of stderr) is shown. */
const MAX_LINE_CHARS = 1_000;

/** How many lines of a failed app-server's stderr the summary shows. */
const STDERR_TAIL_LINES = 12;

/** `1234` → `1,234`, independent of the user's locale. Pure. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** `1,234 in (1,000 cached) / 56 out (12 reasoning)`; the parentheses only when non-zero. Pure. */
export function formatUsage(usage: Usage): string {
  const cached = usage.cacheReadTokens > 0 ? ` (${formatCount(usage.cacheReadTokens)} cached)` : "";
  const reasoning = usage.reasoningTokens > 0 ? ` (${formatCount(usage.reasoningTokens)} reasoning)` : "";
  return `${formatCount(usage.inputTokens)} in${cached} / ${formatCount(usage.outputTokens)} out${reasoning}`;
}

function modelAndUsage(terminal: TerminalEvent): string[] {
  const parts: string[] = [];
  if (terminal.model !== null) parts.push(`model ${printableText(terminal.model, 80)}`);
  if (terminal.usage !== null) parts.push(formatUsage(terminal.usage));
  return parts;
}

const CANCEL_VIA: Record<string, string> = {
  interrupted: "interrupted",
  killed: "killed after the interrupt grace",
  "before-turn": "before the turn started",
};

function lastLines(text: string, count: number): string[] {
  const lines = text.replace(/\s+$/, "").split(/\r?\n/);
  return lines.length === 1 && lines[0] === "" ? [] : lines.slice(-count);
}

/** Text from the agent or the process on one line, escaped for the terminal ({@link printableText}). Pure. */
function oneLine(text: string, max = MAX_LINE_CHARS): string {
  return printableText(text.replace(/\s*\r?\n\s*/g, " ").trim(), max);
}

/** Detail lines under a failure headline: exit code, stderr tail, JSON-RPC code, OS error and a hint. Pure. */
function failureDetails(failure: Failure, text: HarnessText): string[] {
  switch (failure.source) {
    case "turn": {
      const lines: string[] = [];
      if (failure.errorInfo !== null && failure.errorInfo !== undefined) {
        lines.push(`error info: ${JSON.stringify(failure.errorInfo)}`);
      }
      if (failure.timeout)
        lines.push(`hint: raise --timeout (now ${failure.timeout.timeoutMs / 1000} s) or leave it out`);
      return lines;
    }
    case "jsonrpc":
      return [
        failure.code === null
          ? `${failure.method}: no answer${failure.timeout ? ` within ${failure.timeout.timeoutMs} ms` : ""}`
          : `${failure.method}: JSON-RPC error ${failure.code}`,
      ];
    case "exit": {
      const how =
        failure.signal !== null
          ? `killed by ${failure.signal}`
          : failure.exitCode !== null
            ? `exit code ${failure.exitCode}`
            : "still running";
      const tail = lastLines(failure.stderrTail, STDERR_TAIL_LINES);
      return [
        `${text.child} ${how}`,
        ...(tail.length > 0 ? ["stderr (last lines):", ...tail.map((line) => `  ${line}`)] : []),
      ];
    }
    case "spawn": {
      const lines = [`command: ${failure.command}${failure.errno !== null ? ` (${failure.errno})` : ""}`];
      if (failure.errno === "ENOENT") {
        if (text.missingExecutableHint) lines.push(`hint: ${text.missingExecutableHint}`);
      } else if (failure.errno === "EACCES") {
        lines.push("hint: the file is not executable (chmod +x) or not a program");
      }
      return lines;
    }
    case "parse": {
      const lines = failure.line !== "" ? [`input: ${oneLine(failure.line, 200)}`] : [];
      return [...lines, ...(failure.errors ?? []).map((error) => `error: ${error}`)];
    }
    default:
      return [];
  }
}

/** Each limit as the command line sets it: its flag, and its values in the flag's unit. */
const LIMIT_FLAGS: ReadonlyMap<TurnLimit["name"], { flag: string; value: (n: number) => string }> = new Map([
  ["maxToolCalls", { flag: "--max-tool-calls", value: formatCount }],
  ["maxTokens", { flag: "--max-tokens", value: formatCount }],
  ["maxDurationMs", { flag: "--max-duration", value: (ms: number) => `${ms / 1000} s` }],
  ["maxCostUsd", { flag: "--max-budget-usd", value: (usd: number) => `$${usd}` }],
]);

/** `limit --max-tool-calls 3 reached (4)`: which limit stopped the turn, and how far the turn had got. Pure. */
function limitReason(limit: TurnLimit): string {
  const known = LIMIT_FLAGS.get(limit.name);
  const flag = known?.flag ?? String(limit.name);
  const value = known?.value ?? String;
  const set = limit.value === null ? "" : ` ${value(limit.value)}`;
  return `limit ${flag}${set} reached${limit.reached === null ? "" : ` (${value(limit.reached)})`}`;
}

/**
 * The final lines of human output: a one-line outcome (with model and usage where known), then indented
 * detail lines for failures. Pure.
 */
export function summarizeTerminal(terminal: TerminalEvent, colors: Colors): string[] {
  const extra = modelAndUsage(terminal);
  switch (terminal.outcome) {
    case "completed":
      return [[colors.green("✓ completed"), ...extra].join(" · ")];
    case "cancelled": {
      const via = terminal.cancellation
        ? (CANCEL_VIA[terminal.cancellation.via] ?? terminal.cancellation.via)
        : null;
      const limit = terminal.cancellation?.limit;
      const reason = limit ? limitReason(limit) : terminal.cancellation?.reason;
      const head =
        colors.yellow(`⊘ cancelled${via ? ` (${via})` : ""}`) + (reason ? `: ${oneLine(reason)}` : "");
      return [[head, ...extra].join(" · ")];
    }
    default: {
      const failure = terminal.failure;
      if (!failure)
        return [colors.red("✗ failed"), ...(extra.length > 0 ? [colors.dim(`  ${extra.join(" · ")}`)] : [])];
      const head = `${colors.red(`✗ failed (${failure.source})`)}: ${oneLine(failure.message)}`;
      const details = failureDetails(failure, harnessText(terminal.harness));
      if (terminal.usage !== null) details.push(extra.join(" · "));
      return [head, ...details.map((line) => colors.dim(`  ${printableText(line, MAX_LINE_CHARS)}`))];
    }
  }
}
