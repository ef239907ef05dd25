import { type CliIo, type ResolvedCliIo, resolveCliIo } from "./cli-io.js";
import { type CommandSpec, parseCommandLine } from "./command-line.js";
import { CLAUDE_COMMANDS, CODEX_COMMANDS, type CommandEntry } from "./commands/command-table.js";
import { didYouMean } from "../did-you-mean.js";
import { EXIT_CODES, isUnavailableCode } from "./exit-codes.js";
import {
  commandArguments,
  commandHelpPage,
  DEFAULT_HELP_WIDTH,
  formatHelp,
  HELP_ROW,
  type HelpPage,
} from "./help-format.js";
import { environmentHelp, examplesHelp, turnExitCodesHelp } from "./help-text.js";
import { CLAUDE_WORDS, CODEX_WORDS } from "./turn-option-specs.js";
import { packageVersion } from "../package-version.js";
import { errorMessage, isRennetError } from "../errors.js";
import { UsageError } from "./usage-error.js";
import { guardOutput } from "./output-guard.js";
import { terminalText } from "../printable-text.js";

export type { CliIo, CliSignal, SignalSource, TtyState } from "./cli-io.js";
export { EXIT_CODES } from "./exit-codes.js";

const CODEX_EPILOGUE = [
  turnExitCodesHelp(CODEX_WORDS),
  environmentHelp(CODEX_WORDS),
  examplesHelp([
    'rennet codex run "explain what this repository does"',
    "echo 'fix the failing test' | rennet codex run --json - | jq -c 'select(.type == \"terminal\")'",
    "rennet codex doctor",
  ]),
];

const CLAUDE_EPILOGUE = [
  turnExitCodesHelp(CLAUDE_WORDS),
  environmentHelp(CLAUDE_WORDS),
  examplesHelp([
    'rennet claude run "explain what this repository does"',
    "rennet claude run --json - < task.md | jq -c 'select(.type == \"terminal\")'",
    "rennet claude doctor",
  ]),
];

const TOP_EPILOGUE = [
  turnExitCodesHelp(CODEX_WORDS, CLAUDE_WORDS),
  environmentHelp(CODEX_WORDS, CLAUDE_WORDS),
  examplesHelp([
    'rennet codex run "explain what this repository does"',
    "echo 'fix the failing test' | rennet codex run --json - | jq -c 'select(.type == \"terminal\")'",
    'rennet claude run "explain what this repository does"',
    "rennet codex run --help",
  ]),
];

const HELP_COMMAND_ROW = { term: "help [command]", description: "show help for a command" };

const TOP_HELP: HelpPage = {
  usage: "rennet [options] [command]",
  description:
    "Drive your own installed OpenAI Codex (codex app-server) or Anthropic's Claude Code (claude -p) and " +
    "stream one typed event stream.",
  tables: [
    {
      title: "Options",
      rows: [{ term: "-V, --version", description: "print the rennet version" }, HELP_ROW],
    },
    {
      title: "Commands",
      rows: [
        { term: "codex", description: "run and inspect OpenAI Codex" },
        { term: "claude", description: "run and inspect Anthropic's Claude Code" },
        HELP_COMMAND_ROW,
      ],
    },
  ],
  epilogue: TOP_EPILOGUE,
};

/** A command group (`rennet codex`, `rennet claude`): its commands and what its help page says. */
interface CommandGroup {
  name: string;
  description: string;
  commands: readonly CommandEntry[];
  epilogue: readonly string[];
}

/** The help page of a group: loads every spec of the group for its command list. */
async function groupHelp(group: CommandGroup): Promise<HelpPage> {
  const specs = await Promise.all(group.commands.map((command) => command.load()));
  return {
    usage: `rennet ${group.name} [options] [command]`,
    description: group.description,
    tables: [
      { title: "Options", rows: [HELP_ROW] },
      {
        title: "Commands",
        rows: [
          ...specs.map((spec) => ({
            term: `${spec.name} ${commandArguments(spec)}`,
            description: spec.summary,
          })),
          HELP_COMMAND_ROW,
        ],
      },
    ],
    epilogue: group.epilogue,
  };
}

const GROUPS: readonly CommandGroup[] = [
  {
    name: "codex",
    description: "Run Codex turns through `codex app-server`.",
    commands: CODEX_COMMANDS,
    epilogue: CODEX_EPILOGUE,
  },
  {
    name: "claude",
    description: "Run Claude Code turns through `claude -p` in stream-json mode.",
    commands: CLAUDE_COMMANDS,
    epilogue: CLAUDE_EPILOGUE,
  },
];

const GROUP_NAMES = GROUPS.map((group) => group.name);

const isHelpFlag = (arg: string | undefined): boolean => arg === "-h" || arg === "--help";

/**
 * Whether a level's help is asked for beside an option it does not know (`rennet codex --bogus --help`): `word`
 * stands where a command goes and is an option, and `-h`/`--help` follows before any `--`. Its page is what
 * explains the mistake, as on a leaf command.
 */
function helpBesideOption(word: string, rest: readonly string[]): boolean {
  if (!word.startsWith("-")) return false;
  const end = rest.indexOf("--");
  return (end === -1 ? rest : rest.slice(0, end)).some(isHelpFlag);
}

/** What one command line asks for: a help page (on stdout, or on stderr for a missing command) or a command. */
type Resolved =
  | { type: "help"; page: HelpPage; toStderr: boolean }
  | { type: "version" }
  | { type: "command"; spec: CommandSpec; path: string; args: string[] };

/**
 * Finds what `argv` asks for, loading the one spec it needs (a group's help page loads the group's). Rejects with
 * {@link UsageError} for an unknown command or option.
 */
async function resolveCommand(argv: readonly string[]): Promise<Resolved> {
  const [first, ...rest] = argv;
  if (first === undefined) return { type: "help", page: TOP_HELP, toStderr: true };
  if (isHelpFlag(first)) return { type: "help", page: TOP_HELP, toStderr: false };
  if (first === "-V" || first === "--version") return { type: "version" };
  if (first === "help") return { type: "help", page: await helpFor(rest), toStderr: false };
  if (helpBesideOption(first, rest)) return { type: "help", page: TOP_HELP, toStderr: false };
  const group = findGroup(first, ["help"]);
  const [name, ...args] = rest;
  if (name === undefined) return { type: "help", page: await groupHelp(group), toStderr: true };
  if (isHelpFlag(name)) return { type: "help", page: await groupHelp(group), toStderr: false };
  if (name === "help") return { type: "help", page: await helpFor([group.name, ...args]), toStderr: false };
  if (helpBesideOption(name, args)) return { type: "help", page: await groupHelp(group), toStderr: false };
  const path = `rennet ${group.name} ${name}`;
  return { type: "command", spec: await groupCommand(group, name, ["help"]).load(), path, args };
}

/**
 * The page `rennet help …` shows: `[]` the top one, `["codex"]` the codex one, `["codex", "run"]` run's. A word
 * after the command (`help codex run doctor`) is a usage error, as an unknown command is; an option there is not.
 */
async function helpFor(path: readonly string[]): Promise<HelpPage> {
  const [first, name, extra] = path;
  if (first === undefined) return TOP_HELP;
  const group = findGroup(first);
  if (name === undefined) return groupHelp(group);
  const spec = await groupCommand(group, name).load();
  const command = `rennet ${group.name} ${name}`;
  if (extra !== undefined && !extra.startsWith("-"))
    throw new UsageError(
      `help takes a group and one of its commands: '${extra}' after '${name}' is one word too many`,
      command,
    );
  return commandHelpPage(spec, command);
}

/** The command group `name`; an unknown one is a usage error that may suggest a group or `also`. */
function findGroup(name: string, also: readonly string[] = []): CommandGroup {
  const group = GROUPS.find((candidate) => candidate.name === name);
  if (group !== undefined) return group;
  throw unknown(name, [...GROUP_NAMES, ...also], "rennet", ["--help", "--version"]);
}

/** The subcommand `name` of a group; an unknown one is a usage error that may suggest one of them or `also`. */
function groupCommand(group: CommandGroup, name: string, also: readonly string[] = []): CommandEntry {
  const spec = group.commands.find((command) => command.name === name);
  if (spec !== undefined) return spec;
  throw unknown(name, [...group.commands.map((command) => command.name), ...also], `rennet ${group.name}`, [
    "--help",
  ]);
}

/** The usage error for an unknown word: a command, or an option (`-…`) of the level's `options`. */
function unknown(
  word: string,
  known: readonly string[],
  path: string,
  options: readonly string[],
): UsageError {
  const option = word.startsWith("-");
  const suggestion = option
    ? word.startsWith("--")
      ? didYouMean(word, options)
      : null
    : didYouMean(word, known);
  return new UsageError(
    `unknown ${option ? "option" : "command"} '${word}'${suggestion ? ` (did you mean ${suggestion}?)` : ""}`,
    path,
  );
}

function reportError(error: unknown, io: ResolvedCliIo): number {
  if (isRennetError(error, "CLI_USAGE")) {
    const command = (error as UsageError).command;
    const help = command ? `${command} --help` : "rennet --help";
    // the message may quote an argument (a path from a repository): nothing in it may drive the terminal
    io.stderr.write(`error: ${terminalText(error.message)}\n(see \`${help}\`)\n`);
    return EXIT_CODES.usage;
  }
  // a repository's config codex cannot read, found before discovery: the turn's failure, not Rennet's
  if (isRennetError(error, "PROJECT_CONFIG_NOT_A_FILE")) {
    io.stderr.write(`error: ${terminalText(error.message)}\n`);
    return EXIT_CODES.failed;
  }
  // by code: the error may come from a lazily loaded module's own copy of the class
  if (isRennetError(error) && isUnavailableCode(error.code)) {
    io.stderr.write(`error: ${terminalText(error.message)}\n`);
    return EXIT_CODES.agentUnavailable;
  }
  const stack = (error as { stack?: unknown } | null)?.stack;
  const text = typeof stack === "string" ? stack : errorMessage(error);
  // the message may quote anything the command read (a file, an agent's output): escaped, its lines kept
  io.stderr.write(`rennet: internal error: ${terminalText(text)}\n`);
  return EXIT_CODES.failed;
}

/** Help is wrapped at the terminal's width when stdout is one, else at 80 columns. */
function helpWidth(io: ResolvedCliIo): number {
  const columns = (io.stdout as { columns?: unknown }).columns;
  return io.isTTY.stdout && typeof columns === "number" && columns > 0 ? columns : DEFAULT_HELP_WIDTH;
}

/**
 * Runs the `rennet` command line (`argv` without the node and script paths) and resolves with the process
 * exit code. Never rejects and never calls `process.exit`; `io` replaces the real process in tests.
 */
export async function main(argv: string[], cliIo?: CliIo): Promise<number> {
  const io = resolveCliIo(cliIo);
  const output = guardOutput(io);
  try {
    return await output.settle(await runCommand(argv, io));
  } finally {
    output.dispose();
  }
}

/** Runs the command `argv` names and resolves with its exit code. Never rejects. */
async function runCommand(argv: string[], io: ResolvedCliIo): Promise<number> {
  try {
    const resolved = await resolveCommand(argv);
    if (resolved.type === "version") {
      io.stdout.write(`${packageVersion()}\n`);
      return EXIT_CODES.completed;
    }
    if (resolved.type === "help") {
      (resolved.toStderr ? io.stderr : io.stdout).write(formatHelp(resolved.page, helpWidth(io)));
      return resolved.toStderr ? EXIT_CODES.usage : EXIT_CODES.completed;
    }
    const { spec, path, args } = resolved;
    const parsed = parseCommandLine(spec, args, path);
    if (parsed === null) {
      io.stdout.write(formatHelp(commandHelpPage(spec, path), helpWidth(io)));
      return EXIT_CODES.completed;
    }
    return await spec.run(parsed, io);
  } catch (error) {
    return reportError(error, io);
  }
}
