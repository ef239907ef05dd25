import { loadModule } from "../../load-module.js";
import { defineCommand } from "../command-line.js";
import type * as RunAction from "./codex-run-action.js";
import { dispatchTurnCommand } from "./command-kinds.js";
import { ENVIRONMENT_HELP, EXIT_CODES_HELP, signalsHelp, STREAM_OUTPUT_HELP } from "../help-text.js";
import { CODEX_WORDS, PROMPT_ARGUMENT, TOOL_OPTION, TURN_OPTIONS } from "../turn-option-specs.js";

const EXAMPLES_HELP = [
  "Examples:",
  '  $ rennet codex run "explain what src/index.ts exports"',
  '  $ rennet codex run --cwd ~/src/app --model gpt-5 --timeout 600 "make the failing test pass"',
  "  $ cat task.md | rennet codex run --json - > events.jsonl",
  '  $ rennet codex run --codex-bin /opt/codex/bin/codex "hello"',
  '  $ rennet codex run --ask --max-tool-calls 20 "fix the build"',
  '  $ rennet codex run --tool ./tools.js --json "look up ticket T-42"',
].join("\n");

/** `rennet codex run [options] <prompt>`: one agentic Codex turn, streamed. */
export const codexRunCommand = defineCommand<RunAction.RawRunOptions>({
  name: "run",
  summary: "run one Codex turn and stream it",
  description:
    "Run one Codex turn in your installed Codex and stream it. The turn has full access and never waits for " +
    "approval: every request codex sends is answered automatically (with --ask, you answer them instead). " +
    "The thread is ephemeral: it is not added to your Codex history (codex 0.90 and newer; older ones keep it).",
  argument: PROMPT_ARGUMENT,
  options: [...TURN_OPTIONS, TOOL_OPTION],
  epilogue: [STREAM_OUTPUT_HELP, signalsHelp(CODEX_WORDS), EXIT_CODES_HELP, ENVIRONMENT_HELP, EXAMPLES_HELP],
  run: (parsed, io) =>
    dispatchTurnCommand(parsed, io, () =>
      loadModule<typeof RunAction>(
        new URL("./codex-run-action.js", import.meta.url),
        () => import("./codex-run-action.js"),
      ),
    ),
});
