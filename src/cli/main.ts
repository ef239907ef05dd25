import { Command, CommanderError } from "commander";
import { type CliIo, type ResolvedCliIo, resolveCliIo } from "./cli-io.js";
import type { CommandContext, RegisterCommand } from "./command-context.js";
import { registerCodexMcpIsolation } from "./commands/codex-mcp-isolation.js";
import { registerCodexDoctor } from "./commands/codex-doctor.js";
import { registerCodexExec } from "./commands/codex-exec.js";
import { registerCodexRun } from "./commands/codex-run.js";
import { EXIT_CODES } from "./exit-codes.js";
import { ENVIRONMENT_HELP, EXIT_CODES_HELP, examplesHelp, helpEpilogue } from "./help-text.js";
import { packageVersion } from "../package-version.js";
import { CodexUnavailableError } from "../codex/discovery/errors.js";
import { UsageError } from "./usage-error.js";

export type { CliIo, CliSignal, SignalSource, TtyState } from "./cli-io.js";
export { EXIT_CODES } from "./exit-codes.js";

/**
 * Subcommands of `rennet codex`, in help order. Adding one is one import and one line here; each lives in
 * its own file under `src/cli/commands/` and exports a {@link RegisterCommand}: the definition (options, help)
 * is all that loads to parse a command line, and a command's action module loads when that command runs.
 */
const CODEX_COMMANDS: readonly RegisterCommand[] = [
  registerCodexRun, // rennet codex run [options] <prompt>
  registerCodexExec, // rennet codex exec --schema FILE [--effort LEVEL] <prompt>
  registerCodexDoctor, // rennet codex doctor [--json] [--refresh]
  registerCodexMcpIsolation, // rennet codex mcp-isolation [--json] [--codex-bin PATH]
];

const TOP_EXAMPLES = examplesHelp([
  'rennet codex run "explain what this repository does"',
  "echo 'fix the failing test' | rennet codex run --json - | jq -c 'select(.type == \"terminal\")'",
  "rennet codex run --help",
]);

function buildProgram(context: CommandContext): Command {
  const { io } = context;
  const program = new Command("rennet")
    .description(
      "Drive your own installed OpenAI Codex (codex app-server) and stream one typed event stream.",
    )
    .version(packageVersion(), "-V, --version", "print the rennet version")
    .helpOption("-h, --help", "show help")
    // set before any subcommand exists: commander copies these settings into subcommands
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", helpEpilogue(EXIT_CODES_HELP, ENVIRONMENT_HELP, TOP_EXAMPLES));

  const codex = program
    .command("codex")
    .summary("run and inspect OpenAI Codex")
    .description("Run Codex turns through `codex app-server`.")
    .addHelpText("after", helpEpilogue(EXIT_CODES_HELP, ENVIRONMENT_HELP, TOP_EXAMPLES));
  for (const register of CODEX_COMMANDS) register(codex, context);
  return program;
}

function reportError(error: unknown, io: ResolvedCliIo): number {
  if (error instanceof CommanderError) {
    // commander already printed the message (or the help/version text)
    return error.exitCode === 0 ? EXIT_CODES.completed : EXIT_CODES.usage;
  }
  if (error instanceof UsageError) {
    const help = error.command ? `${error.command} --help` : "rennet --help";
    io.stderr.write(`error: ${error.message}\n(see \`${help}\`)\n`);
    return EXIT_CODES.usage;
  }
  if (error instanceof CodexUnavailableError) {
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT_CODES.codexUnavailable;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`rennet: internal error: ${text}\n`);
  return EXIT_CODES.failed;
}

/**
 * Runs the `rennet` command line (`argv` without the node and script paths) and resolves with the process
 * exit code. Never rejects and never calls `process.exit`; `io` replaces the real process in tests.
 */
export async function main(argv: string[], cliIo?: CliIo): Promise<number> {
  const io = resolveCliIo(cliIo);
  let exitCode: number = EXIT_CODES.completed;
  const context: CommandContext = {
    io,
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  const unguard = ignoreClosedOutput(io);
  try {
    await buildProgram(context).parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    return reportError(error, io);
  } finally {
    unguard();
  }
}

/**
 * A reader that goes away (`rennet … | head -1`) is not a crash: write errors on stdout and stderr (EPIPE,
 * writes after the stream was destroyed) are ignored for the whole command. A running turn is cancelled by
 * its own listener (see `driveSession`); everything else simply has no reader left. Returns the remover.
 */
function ignoreClosedOutput(io: ResolvedCliIo): () => void {
  const ignore = (): void => {};
  // a test may pass a bare `{ write }` object: only emitters can report write errors
  const streams = [io.stdout, io.stderr].filter((stream) => typeof stream.on === "function");
  for (const stream of streams) stream.on("error", ignore);
  return () => {
    for (const stream of streams) stream.off("error", ignore);
  };
}
