import { defineCommand } from "../command-line.js";
import { loadModule } from "../../load-module.js";
import { ENVIRONMENT_HELP } from "../help-text.js";
import { CODEX_WORDS } from "../turn-option-specs.js";
import type { RawDoctorOptions } from "./codex-doctor-action.js";
import type * as DoctorAction from "./codex-doctor-action.js";
import { doctorExamplesHelp, doctorExitHelp, doctorOptions, runReportCommand } from "./command-kinds.js";

const WHAT_HELP = [
  "What it checks:",
  "  Every candidate codex, in rank order: RENNET_CODEX_BIN; your login shell's PATH; this process's PATH;",
  "  known install locations (~/.local/bin, npm's global bin, Homebrew, Volta, bun, asdf, mise, fnm, nvm, pnpm);",
  "  the ChatGPT/Codex desktop app bundles (macOS) last. Each candidate must be executable, print a version",
  "  (`--version`) and complete an app-server `initialize` handshake. The chosen one is the best-ranked",
  "  candidate that passes all three. Probe results are cached by real path, size, mtime and inode.",
  "  Then the schema drift check: it generates the chosen binary's JSON schema (`codex app-server",
  "  generate-json-schema`, with a throw-away CODEX_HOME) and reports, per method, field and enum value Rennet",
  "  sends or relies on, ok / missing / changed, and the notifications Rennet will pass through unknown.",
  "  Cached per binary (path, size, mtime) beside the probe cache; --refresh generates it again.",
  "  Last, the project trust of --cwd (default: the current directory), asked of the chosen binary without",
  "  a thread (`config/read`): trusted only where your Codex config trusts it or its git root; an untrusted",
  "  repository's own .codex/ config (MCP servers, hooks, instructions, model) is not loaded. It says what",
  "  this codex version does with that config, and whether a turn there would be refused.",
].join("\n");

/** `rennet codex doctor [--json] [--refresh] [--codex-bin PATH] [--cwd DIR]`. */
export const codexDoctorCommand = defineCommand<RawDoctorOptions>({
  name: "doctor",
  summary: "show which Codex would run, and why",
  description:
    "Discover the installed Codex the way Rennet does before every turn, probe every candidate, and report " +
    "each one with its source, path, version, every probe's result and timing, and the chosen binary; then " +
    "the chosen binary's schema drift and the project trust a turn in --cwd would get.",
  options: doctorOptions(CODEX_WORDS, {
    afterRefresh: [{ name: "no-drift", description: "skip the schema drift check" }],
  }),
  epilogue: [
    WHAT_HELP,
    doctorExitHelp(CODEX_WORDS),
    ENVIRONMENT_HELP,
    doctorExamplesHelp(CODEX_WORDS, [
      "rennet codex doctor --cwd ~/src/app --json | jq '.trust'   # the trust a turn there gets",
      "rennet codex doctor --cwd '\\\\wsl.localhost\\Ubuntu\\home\\me\\repo'   # the Codex of a WSL repository",
    ]),
  ],
  run: runReportCommand(() =>
    loadModule<typeof DoctorAction>(
      new URL("./codex-doctor-action.js", import.meta.url),
      () => import("./codex-doctor-action.js"),
    ),
  ),
});
