import { defineCommand } from "../command-line.js";
import { loadModule } from "../../load-module.js";
import { environmentHelp } from "../help-text.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";
import type { RawClaudeDoctorOptions } from "./claude-doctor-action.js";
import type * as DoctorAction from "./claude-doctor-action.js";
import {
  doctorExamplesHelp,
  doctorExitHelp,
  doctorOptions,
  runReportCommand,
  trustProjectOption,
} from "./command-kinds.js";

const WHAT_HELP = [
  "What it checks:",
  "  Every candidate claude, in rank order: RENNET_CLAUDE_BIN; your login shell's PATH; this process's PATH;",
  "  known install locations (~/.local/bin of the native installer, ~/.claude/local, npm's global bin, Homebrew,",
  "  Volta, bun, asdf, mise, fnm, nvm, pnpm; WinGet on Windows); the Claude desktop app's own copy last. Each",
  "  candidate must be executable and print a supported Claude Code version (`--version`, 2.0.64 or newer);",
  "  npm's placeholder bin/claude.exe (postinstall not run) is replaced by its platform package's binary, and a",
  "  1.0 cli.js is refused from its header without being run. The chosen one is the best-ranked candidate that",
  "  passes. Probe results are cached by real path, size, mtime and inode.",
  "  Then the project trust of --cwd (default: the current directory): untrusted unless a call opts in, so a",
  "  turn there runs with --setting-sources=user and --strict-mcp-config; it lists the repository's own Claude",
  "  Code files there (settings, .mcp.json, CLAUDE.md, commands, agents, …) and what a turn does with each, and",
  "  what the settings files and .mcp.json ask to run: hooks, MCP servers, enableAllProjectMcpServers, env",
  "  names, apiKeyHelper. Those are read as hostile input (no symlink followed, at most 1 MiB, printed escaped);",
  "  nothing else is read.",
].join("\n");

/** `rennet claude doctor [--json] [--refresh] [--claude-bin PATH] [--cwd DIR] [--trust-project]`. */
export const claudeDoctorCommand = defineCommand<RawClaudeDoctorOptions>({
  name: "doctor",
  summary: "show which Claude Code would run, and why",
  description:
    "Discover the installed Claude Code the way Rennet does before every turn, probe every candidate, and " +
    "report each one with its source, path, version, every probe's result and timing, and the chosen binary; " +
    "then the project trust a turn in --cwd would get.",
  options: doctorOptions(CLAUDE_WORDS, {
    afterCwd: [trustProjectOption("report the trust a call that opts in (trustProject: true) would get")],
  }),
  epilogue: [
    WHAT_HELP,
    doctorExitHelp(CLAUDE_WORDS),
    environmentHelp(CLAUDE_WORDS),
    doctorExamplesHelp(CLAUDE_WORDS, [
      "rennet claude doctor --cwd ~/src/app --json | jq '.trust'   # what a turn there gets",
    ]),
  ],
  run: runReportCommand(() =>
    loadModule<typeof DoctorAction>(
      new URL("./claude-doctor-action.js", import.meta.url),
      () => import("./claude-doctor-action.js"),
    ),
  ),
});
