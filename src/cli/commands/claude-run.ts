import { loadModule } from "../../load-module.js";
import { defineCommand } from "../command-line.js";
import {
  environmentHelp,
  examplesHelp,
  signalsHelp,
  STREAM_OUTPUT_HELP,
  turnExitCodesHelp,
} from "../help-text.js";
import { CLAUDE_TURN_OPTIONS, CLAUDE_WORDS, PROMPT_ARGUMENT, TOOL_OPTION } from "../turn-option-specs.js";
import type * as RunAction from "./claude-run-action.js";
import { dispatchTurnCommand } from "./command-kinds.js";

/** What a Claude Code turn is allowed, and what it leaves, for every claude turn command's help. */
export const CLAUDE_TURN_HELP = [
  "The turn:",
  "  claude -p in stream-json mode, the prompt on its stdin (never on its command line), permission mode",
  "  bypassPermissions: nothing waits for approval (with --ask: mode default, each prompt asked at this terminal).",
  "  As root Claude Code refuses bypassPermissions unless IS_SANDBOX=1 is in the environment; rennet then fails",
  "  before starting it (exit 1) and never sets the variable itself (--ask does not need it). The repository's",
  "  own .claude/ settings and .mcp.json are kept out unless --trust-project; no MCP server runs but those of",
  "  --mcp-server; no transcript is written unless --keep-thread. The whole process tree is ended after the turn.",
].join("\n");

const EXAMPLES_HELP = examplesHelp([
  'rennet claude run "explain what src/index.ts exports"',
  'rennet claude run --cwd ~/src/app --model opus --effort high --timeout 600 "make the failing test pass"',
  "cat task.md | rennet claude run --json - > events.jsonl",
  'rennet claude run --claude-bin ~/.local/bin/claude "hello"',
  'rennet claude run --tool ./tools.js --json "look up ticket T-42"',
  'rennet claude run --ask --max-tool-calls 20 --max-budget-usd 2 "fix the build"',
]);

/** `rennet claude run [options] <prompt>`: one agentic Claude Code turn, streamed. */
export const claudeRunCommand = defineCommand<RunAction.RawClaudeRunOptions>({
  name: "run",
  summary: "run one Claude Code turn and stream it",
  description:
    "Run one Claude Code turn in your installed Claude Code and stream it, as the same harness events as " +
    "`rennet codex run`. The turn has full access and never waits for approval (unless --ask); its session leaves no " +
    "transcript in your Claude history.",
  argument: PROMPT_ARGUMENT,
  options: [...CLAUDE_TURN_OPTIONS, TOOL_OPTION],
  epilogue: [
    CLAUDE_TURN_HELP,
    STREAM_OUTPUT_HELP,
    signalsHelp(CLAUDE_WORDS),
    turnExitCodesHelp(CLAUDE_WORDS),
    environmentHelp(CLAUDE_WORDS),
    EXAMPLES_HELP,
  ],
  run: (parsed, io) =>
    dispatchTurnCommand(parsed, io, () =>
      loadModule<typeof RunAction>(
        new URL("./claude-run-action.js", import.meta.url),
        () => import("./claude-run-action.js"),
      ),
    ),
});
