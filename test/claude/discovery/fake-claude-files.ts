import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { NPM_STUB_MAX_BYTES } from "../../../src/claude/discovery/npm-native-claude.js";

/** What a fake `claude` does when run. */
export interface FakeClaudeOptions {
  /** What `--version` prints; default `2.1.332 (Claude Code)`. */
  prints?: string;
  /** The `#!` line; default `#!/bin/sh`. `node` writes a node script (a `cli.js`). */
  kind?: "sh" | "node";
  /** A `// Version:` header line (what npm's `cli.js` has; node scripts only). */
  header?: string;
  /** Pad the file past npm's placeholder size, as a real binary is. Default true for `sh`. */
  full?: boolean;
}

/**
 * Writes an executable fake `claude` at `file` that appends `<argv0> <args>` to `log` on every run and answers
 * `--version`. Shell fakes use builtins only (the sandbox PATH has no commands).
 */
export async function writeFakeClaude(
  file: string,
  log: string,
  options: FakeClaudeOptions = {},
): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const prints = options.prints ?? "2.1.332 (Claude Code)";
  const header = options.header === undefined ? [] : ["", `// Version: ${options.header}`, ""];
  const body =
    options.kind === "node"
      ? [
          "#!/usr/bin/env node",
          ...header,
          'const { appendFileSync } = require("node:fs");',
          `appendFileSync(${JSON.stringify(log)}, process.argv[1] + " " + process.argv.slice(2).join(" ") + "\\n");`,
          `if (process.argv[2] === "--version") console.log(${JSON.stringify(prints)});`,
          "else process.exit(2);",
        ]
      : [
          "#!/bin/sh",
          `echo "$0 $*" >> '${log}'`,
          `case "$1" in --version) echo '${prints}';; *) exit 2;; esac`,
        ];
  const padding = (options.full ?? options.kind !== "node") ? [`# ${"x".repeat(NPM_STUB_MAX_BYTES)}`] : [];
  await fs.writeFile(file, [...body, ...padding, ""].join("\n"), { mode: 0o755 });
  return file;
}

/** npm's placeholder `bin/claude.exe` (no `#!`, under 4 KB): prints why and exits 1. */
export async function writeNpmStub(file: string): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, "echo 'Error: claude native binary not installed.' >&2\nexit 1\n", {
    mode: 0o755,
  });
  return file;
}

/** The runs a fake logged, one `<argv0> <args>` per line. */
export function fakeRuns(log: string): string[] {
  try {
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** Creates `link` (and its directory) pointing at `target`. */
export async function link(target: string, linkPath: string): Promise<string> {
  await fs.mkdir(path.dirname(linkPath), { recursive: true });
  await fs.symlink(target, linkPath);
  return linkPath;
}
