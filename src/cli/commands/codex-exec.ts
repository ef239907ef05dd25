import { REASONING_EFFORTS, validateReasoningEffort } from "../../codex/client/reasoning-effort.js";
import { defineCommand } from "../command-line.js";
import { loadModule } from "../../load-module.js";
import { ENVIRONMENT_HELP, EXIT_CODES_HELP } from "../help-text.js";
import { PROMPT_ARGUMENT, SCHEMA_OPTION, TURN_OPTIONS } from "../turn-option-specs.js";
import type { RawExecOptions } from "./codex-exec-action.js";
import type * as ExecAction from "./codex-exec-action.js";
import { dispatchTurnCommand } from "./command-kinds.js";

const OUTPUT_HELP = [
  "Output:",
  "  default  the answer, valid against the schema, as one line of JSON on stdout (optional properties the",
  "           model left null are removed); nothing else on stdout. Errors and warnings go to stderr: an",
  "           answer that is not JSON or breaks the schema names the first violations and quotes the start",
  "           of the text (exit 1)",
  "  --json   one harness event per line on stdout (see docs/events.md), ending with the `terminal` event,",
  "           which carries the value as `structuredOutput` when the call completed",
].join("\n");

const SCHEMA_HELP = [
  "Schema:",
  '  an ordinary JSON Schema (draft-07, 2019-09 or 2020-12) whose root is `type: "object"`. Rennet converts',
  "  it to OpenAI strict mode for the model (optional properties become required and nullable, objects get",
  "  additionalProperties:false) and validates the answer against your schema as written. A file that cannot",
  "  be read, is not JSON, or uses what strict mode cannot express (oneOf, allOf, free-form maps, …) is a",
  "  usage error (exit 2). See docs/structured-output.md.",
].join("\n");

const EFFORT_HELP = [
  "Reasoning effort:",
  `  ${REASONING_EFFORTS.join(", ")}. Sent for this call only (turn/start.effort); without`,
  "  --effort the model's default applies. Which levels a model honours depends on the model.",
].join("\n");

const EXEC_EXIT_CODES_HELP = `${EXIT_CODES_HELP}\n  (exit 2 also: missing, unreadable or invalid --schema file; unknown --effort level)`;

const EXAMPLES_HELP = [
  "Examples:",
  '  $ rennet codex exec --schema summary.schema.json "summarize README.md"',
  "  $ rennet codex exec --schema tasks.json --effort low --cwd ~/src/app \"list the TODOs\" | jq '.tasks[]'",
  "  $ cat question.md | rennet codex exec --schema answer.json --json - > events.jsonl",
].join("\n");

/** `rennet codex exec --schema FILE [options] <prompt>`: one structured Codex call, printed as JSON. */
export const codexExecCommand = defineCommand<RawExecOptions>({
  name: "exec",
  summary: "run one Codex call whose answer is JSON matching a schema",
  description:
    "Run one Codex call whose final answer is a JSON value matching --schema, and print that value. The " +
    "model is held to the schema (OpenAI strict structured output) and the answer is validated again " +
    "locally. Like `codex run`, the turn has full access, never waits for approval, and the thread is " +
    "ephemeral.",
  argument: PROMPT_ARGUMENT,
  options: [
    SCHEMA_OPTION,
    {
      name: "effort",
      value: "level",
      description: `reasoning effort for this call: ${REASONING_EFFORTS.join(", ")} (default: the model's)`,
      parse: validateReasoningEffort,
    },
    ...TURN_OPTIONS,
  ],
  epilogue: [OUTPUT_HELP, SCHEMA_HELP, EFFORT_HELP, EXEC_EXIT_CODES_HELP, ENVIRONMENT_HELP, EXAMPLES_HELP],
  // the schema machinery loads when a structured call runs, not when another command is parsed
  run: (parsed, io) =>
    dispatchTurnCommand(parsed, io, () =>
      loadModule<typeof ExecAction>(
        new URL("./codex-exec-action.js", import.meta.url),
        () => import("./codex-exec-action.js"),
      ),
    ),
});
