import { loadModule } from "../../load-module.js";
import { defineCommand } from "../command-line.js";
import { environmentHelp, examplesHelp, turnExitCodesHelp } from "../help-text.js";
import { CLAUDE_TURN_OPTIONS, CLAUDE_WORDS, PROMPT_ARGUMENT, SCHEMA_OPTION } from "../turn-option-specs.js";
import { CLAUDE_TURN_HELP } from "./claude-run.js";
import type { RawClaudeExecOptions } from "./claude-exec-action.js";
import type * as ExecAction from "./claude-exec-action.js";
import { dispatchTurnCommand } from "./command-kinds.js";

const OUTPUT_HELP = [
  "Output:",
  "  default  the answer, valid against the schema, as one line of JSON on stdout; nothing else on stdout.",
  "           Errors and warnings go to stderr: no answer, or one that breaks the schema, names the first",
  "           violations (exit 1)",
  "  --json   one harness event per line on stdout (see docs/events.md), ending with the `terminal` event,",
  "           which carries the value as `structuredOutput` when the call completed",
].join("\n");

const SCHEMA_HELP = [
  "Schema:",
  "  a JSON Schema whose root is an object, sent to Claude Code as given (--json-schema): the model answers",
  "  through its StructuredOutput tool, and rennet validates the value again with the same validator as",
  "  `rennet codex exec`. A file that cannot be read, is not JSON or is not a valid schema is a usage error",
  "  (exit 2). See docs/claude-code.md.",
].join("\n");

const EXIT_HELP = `${turnExitCodesHelp(CLAUDE_WORDS)}\n  (exit 2 also: missing, unreadable or invalid --schema file; unknown --effort level)`;

const EXAMPLES_HELP = examplesHelp([
  'rennet claude exec --schema summary.schema.json "summarize README.md"',
  "rennet claude exec --schema tasks.json --effort low --cwd ~/src/app \"list the TODOs\" | jq '.tasks[]'",
  "cat question.md | rennet claude exec --schema answer.json --json - > events.jsonl",
]);

/** `rennet claude exec --schema FILE [options] <prompt>`: one structured Claude Code call, printed as JSON. */
export const claudeExecCommand = defineCommand<RawClaudeExecOptions>({
  name: "exec",
  summary: "run one Claude Code call whose answer is JSON matching a schema",
  description:
    "Run one Claude Code call whose answer is a JSON value matching --schema, and print that value. Like " +
    "`claude run`, the turn has full access, never waits for approval, and leaves no transcript.",
  argument: PROMPT_ARGUMENT,
  options: [SCHEMA_OPTION, ...CLAUDE_TURN_OPTIONS],
  epilogue: [
    CLAUDE_TURN_HELP,
    OUTPUT_HELP,
    SCHEMA_HELP,
    EXIT_HELP,
    environmentHelp(CLAUDE_WORDS),
    EXAMPLES_HELP,
  ],
  // the schema machinery loads when a structured call runs, not when another command is parsed
  run: (parsed, io) =>
    dispatchTurnCommand(parsed, io, () =>
      loadModule<typeof ExecAction>(
        new URL("./claude-exec-action.js", import.meta.url),
        () => import("./claude-exec-action.js"),
      ),
    ),
});
