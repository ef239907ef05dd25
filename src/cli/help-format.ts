import { type CommandSpec, optionTerm } from "./command-line.js";

/** Help lines are wrapped at the terminal's width, else at this many columns. */
export const DEFAULT_HELP_WIDTH = 80;
/** Narrower terminals still get this many columns for a description. */
const MIN_DESCRIPTION_WIDTH = 40;

/** One row of a help table: `--cwd <dir>` and what it does. */
export interface HelpRow {
  readonly term: string;
  readonly description: string;
}

/** A whole help page; every part is plain text, wrapped by {@link formatHelp}. */
export interface HelpPage {
  /** `rennet codex run [options] <prompt>`. */
  readonly usage: string;
  readonly description: string;
  /** Titled tables (`Arguments:`, `Options:`, `Commands:`); empty ones are left out. */
  readonly tables: readonly { readonly title: string; readonly rows: readonly HelpRow[] }[];
  /** Sections after the tables, each already formatted (not wrapped again). */
  readonly epilogue: readonly string[];
}

/** Splits `text` into lines of at most `width` characters at spaces (a longer word gets a line of its own). Pure. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((part) => part !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Renders a help page for a terminal `width` columns wide: the terms of every table share one column. Pure. */
export function formatHelp(page: HelpPage, width: number = DEFAULT_HELP_WIDTH): string {
  const tables = page.tables.filter((table) => table.rows.length > 0);
  const termWidth = Math.max(0, ...tables.flatMap((table) => table.rows.map((row) => row.term.length)));
  const descriptionWidth = Math.max(MIN_DESCRIPTION_WIDTH, width - termWidth - 4);
  const blocks = [`Usage: ${page.usage}`, wrapWords(page.description, width).join("\n")];
  const indent = " ".repeat(termWidth + 4);
  for (const table of tables) {
    const rows = table.rows.map((row) => {
      const [first = "", ...rest] = wrapWords(row.description, descriptionWidth);
      return [`  ${row.term.padEnd(termWidth)}  ${first}`, ...rest.map((line) => indent + line)].join("\n");
    });
    blocks.push([`${table.title}:`, ...rows].join("\n"));
  }
  return `${[...blocks, ...page.epilogue].join("\n\n")}\n`;
}

/** The `-h, --help` row every command has. */
export const HELP_ROW: HelpRow = { term: "-h, --help", description: "show help" };

/** What follows a leaf command's name in a usage line: `[options] <prompt>`. Pure. */
export function commandArguments(spec: CommandSpec): string {
  return spec.argument ? `[options] <${spec.argument.name}>` : "[options]";
}

/** The help page of a leaf command, `path` being how it is invoked (`rennet codex run`). Pure. */
export function commandHelpPage(spec: CommandSpec, path: string): HelpPage {
  const argument = spec.argument;
  return {
    usage: `${path} ${commandArguments(spec)}`,
    description: spec.description,
    tables: [
      {
        title: "Arguments",
        rows: argument ? [{ term: argument.name, description: argument.description }] : [],
      },
      {
        title: "Options",
        rows: [
          ...spec.options.map((option) => ({
            term: optionTerm(option),
            description: option.description,
          })),
          HELP_ROW,
        ],
      },
    ],
    epilogue: spec.epilogue,
  };
}
