import { loadModule } from "../../load-module.js";
import { defineCommand } from "../command-line.js";
import type * as RunAction from "./codex-run-action.js";
import { dispatchTurnCommand } from "./turn-dispatch.js";
import { ENVIRONMENT_HELP, EXIT_CODES_HELP } from "../help-text.js";
import { TURN_OPTIONS } from "../turn-options.js";

const OUTPUT_HELP = [
  "Output:",
  "  default  the assistant's text streams to stdout; tool activity ($ command, exit code, file edits, MCP",
  "           calls), warnings and a final one-line outcome with token usage go to stderr",
  "  --json   one harness event per line on stdout (see docs/events.md), ending with the `terminal` event;",
  "           nothing else is written to stdout, diagnostics go to stderr",
].join("\n");

const SIGNALS_HELP = [
  "Cancelling:",
  "  Ctrl-C (SIGINT) or SIGTERM asks codex to stop the turn (turn/interrupt), waits at most 2 s, then kills",
  "  codex's whole process tree; the exit code is 130 and --json still prints the `cancelled` terminal event.",
  "  A second Ctrl-C does not skip that bounded wait (leaving early could orphan codex's commands).",
].join("\n");

const EXAMPLES_HELP = [
  "Examples:",
  '  $ rennet codex run "explain what src/index.ts exports"',
  '  $ rennet codex run --cwd ~/src/app --model gpt-5 --timeout 600 "make the failing test pass"',
  "  $ cat task.md | rennet codex run --json - > events.jsonl",
  '  $ rennet codex run --codex-bin /opt/codex/bin/codex "hello"',
  '  $ rennet codex run --ask --max-tool-calls 20 "fix the build"',
  '  $ rennet codex run --tool ./tools.js --json "look up ticket T-42"',
].join("\n");

/** `--tool MODULE` (loaded by the action, `tool-modules.ts`). */
const TOOL_OPTION = {
  name: "tool",
  value: "module",
  description:
    "give the agent the app tools this ES module exports (defineTool values; repeatable); each call runs in " +
    "this process and shows as a tool event of kind app (see docs/app-tools.md)",
  repeatable: true,
} as const;

/** `rennet codex run [options] <prompt>`: one agentic Codex turn, streamed. */
export const codexRunCommand = defineCommand<RunAction.RawRunOptions>({
  name: "run",
  summary: "run one Codex turn and stream it",
  description:
    "Run one Codex turn in your installed Codex and stream it. The turn has full access and never waits for " +
    "approval: every request codex sends is answered automatically (with --ask, you answer them instead). " +
    "The thread is ephemeral: it is not added to your Codex history.",
  argument: {
    name: "prompt",
    description: "the prompt, as one quoted argument; `-` reads the whole prompt from stdin",
  },
  options: [...TURN_OPTIONS, TOOL_OPTION],
  epilogue: [OUTPUT_HELP, SIGNALS_HELP, EXIT_CODES_HELP, ENVIRONMENT_HELP, EXAMPLES_HELP],
  run: (parsed, io) =>
    dispatchTurnCommand(parsed, io, () =>
      loadModule<typeof RunAction>(
        new URL("./codex-run-action.js", import.meta.url),
        () => import("./codex-run-action.js"),
      ),
    ),
});
