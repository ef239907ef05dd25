import { parseArgs } from "node:util";
import type { ResolvedCliIo } from "./cli-io.js";
import { UsageError } from "./usage-error.js";
import { didYouMean } from "../did-you-mean.js";
import { isRennetError } from "../errors.js";

/** One `--long` option of a command. */
export interface OptionSpec {
  /** The long name without its dashes: `cwd`, `no-color`. A `no-` name sets the rest to false (default true). */
  readonly name: string;
  /** The value's placeholder in help (`dir` for `--cwd <dir>`); an option without one is a flag. */
  readonly value?: string;
  readonly description: string;
  /** Every occurrence is kept, in order (an array); otherwise the last one wins. */
  readonly repeatable?: boolean;
  /** Leaving the option out is a usage error. */
  readonly required?: boolean;
  /** Converts the value; refuses it with a `RennetError` whose message becomes the usage error's reason. */
  /** Converts the value; refuses it by throwing a `RennetError` whose message says what is accepted. */
  readonly parse?: (value: string) => unknown;
}

/** What a command's action receives: its one argument, when it takes one, and its options by camelCase key. */
export interface ParsedCommand<O = Record<string, unknown>> {
  readonly argument: string | undefined;
  readonly options: O;
}

/** A leaf command (`rennet codex run`): its help and its action, which resolves with the exit code. */
export interface CommandSpec<O = Record<string, unknown>> {
  readonly name: string;
  /** One line for the parent's command list. */
  readonly summary: string;
  readonly description: string;
  /** The one required positional argument, when the command takes one. */
  readonly argument?: { readonly name: string; readonly description: string };
  readonly options: readonly OptionSpec[];
  /** Help sections after the options, each already formatted. */
  readonly epilogue: readonly string[];
  run(command: ParsedCommand<O>, io: ResolvedCliIo): Promise<number>;
}

/**
 * A command whose action reads its options as `O`: the type that names the keys of its {@link OptionSpec}s
 * ({@link optionKey}) with the values their parsers return. Nothing checks that `O` matches the specs; keep the
 * two together.
 */
export function defineCommand<O>(spec: CommandSpec<O>): CommandSpec {
  return spec as unknown as CommandSpec;
}

/** `--cwd <dir>`, `--json`: an option as help and error messages show it. */
export function optionTerm(option: OptionSpec): string {
  return option.value === undefined ? `--${option.name}` : `--${option.name} <${option.value}>`;
}

/** The key an option's value is stored under: `codex-bin` → `codexBin`, `no-color` → `color`. Pure. */
export function optionKey(name: string): string {
  const bare = name.startsWith("no-") ? name.slice(3) : name;
  return bare.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * Parses a leaf command's arguments (after its name): `null` when `-h`/`--help` asks for its help, else the
 * argument and the options (defaults: flags absent, `no-` options true). `--name=value` and `--name value`
 * both work; `--` ends the options. Throws {@link UsageError} naming `path`'s help for an unknown option, a
 * missing or unexpected value, a value its parser refuses, a missing required option, a missing argument or one
 * too many. Pure.
 */
export function parseCommandLine(
  spec: CommandSpec,
  argv: readonly string[],
  path: string,
): ParsedCommand | null {
  const byName = new Map(spec.options.map((option) => [option.name, option]));
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      spec.options.map((option) => [
        option.name,
        { type: option.value === undefined ? "boolean" : "string" },
      ]),
    ),
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  // help is asked for wherever -h/--help stands as an argument of its own (not inside a `-vh` group or a quoted
  // text), also beside a mistake: its page is what explains the mistake
  if (tokens.some((token) => token.kind === "option" && isHelpOption(argv[token.index]))) return null;
  const fail = (message: string): never => {
    throw new UsageError(message, path);
  };
  const options: Record<string, unknown> = {};
  for (const option of spec.options)
    if (option.name.startsWith("no-")) options[optionKey(option.name)] = true;
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    const option = token.rawName.startsWith("--") ? byName.get(token.name) : undefined;
    if (option === undefined) return fail(unknownOption(token.rawName, argv[token.index], spec, path));
    const key = optionKey(option.name);
    if (option.value === undefined) {
      if (token.inlineValue) fail(`option '${optionTerm(option)}' takes no value (got '${token.value}')`);
      options[key] = !option.name.startsWith("no-");
      continue;
    }
    if (token.value === undefined) return fail(`option '${optionTerm(option)}' argument missing`);
    let value: unknown = token.value;
    if (option.parse) {
      try {
        value = option.parse(token.value);
      } catch (error) {
        // a parser refuses a value with a RennetError; anything else is a defect, not a usage error
        if (!isRennetError(error)) throw error;
        fail(`option '${optionTerm(option)}' argument '${token.value}' is invalid. ${error.message}`);
      }
    }
    options[key] = option.repeatable ? [...((options[key] as unknown[] | undefined) ?? []), value] : value;
  }
  for (const option of spec.options) {
    if (option.required && options[optionKey(option.name)] === undefined) {
      fail(`required option '${optionTerm(option)}' not specified`);
    }
  }
  const expected = spec.argument === undefined ? 0 : 1;
  if (spec.argument !== undefined && positionals.length === 0) {
    fail(`missing required argument '${spec.argument.name}'`);
  }
  if (positionals.length > expected) {
    const plural = expected === 1 ? "argument" : "arguments";
    fail(
      `too many arguments for '${spec.name}': expected ${expected} ${plural} but got ${positionals.length}` +
        (expected === 1 ? " (quote the prompt as one argument)" : ""),
    );
  }
  return { argument: positionals[0], options };
}

const isHelpOption = (arg: string | undefined): boolean => arg === "-h" || arg === "--help";

/**
 * The message for an unknown option, naming the command's option it most likely is (`--jsno`: `--json`). An argument with a space in it is no option but a text that starts with a
 * dash (a quoted prompt): the message says how to pass it. Pure.
 */
function unknownOption(rawName: string, arg: string | undefined, spec: CommandSpec, path: string): string {
  if (spec.argument === undefined || arg === undefined || !/\s/.test(arg)) {
    const names = [...spec.options.map((option) => `--${option.name}`), "--help"];
    const suggestion = rawName.startsWith("--") ? didYouMean(rawName, names) : null;
    return `unknown option '${rawName}'${suggestion ? ` (did you mean ${suggestion}?)` : ""}`;
  }
  const shown = arg.length <= 60 ? JSON.stringify(arg) : `"<your ${spec.argument.name}>"`;
  return (
    `${JSON.stringify(arg.length <= 60 ? arg : `${arg.slice(0, 60)}…`)} is not an option: a ${spec.argument.name} ` +
    `that starts with '-' goes after --, as in: ${path} -- ${shown}`
  );
}
