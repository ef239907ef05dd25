// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Syntax no TypeScript file may use. */
const NO_ENUM_NO_NAMESPACE = [
  { selector: "TSEnumDeclaration", message: "Use a union of string literals instead of enum." },
  { selector: "TSModuleDeclaration", message: "No namespaces." },
];

/**
 * The only places in src/ that load a module other than by a static import: the CLI's command dispatch, the
 * package's lazy entry points, its sync entry (which requires the entry), the optional MCP SDK, and the loader
 * itself (docs/architecture.md).
 */
const DEFERRED_LOAD_DOORS = [
  "src/load-module.ts",
  "src/sync-entry.ts",
  "src/cli/commands/*.ts",
  "src/codex/client/lazy-entries.ts",
  "src/claude/client/claude-lazy-entries.ts",
  "src/mcp/mcp-sdk.ts",
  "src/codex/discovery/load-process-probes.ts",
];

export default tseslint.config(
  { ignores: ["dist/**", "dist-typecheck/**", "node_modules/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", ...NO_ENUM_NO_NAMESPACE],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: DEFERRED_LOAD_DOORS,
    rules: {
      "no-restricted-syntax": [
        "error",
        ...NO_ENUM_NO_NAMESPACE,
        {
          selector: "ImportExpression",
          message:
            "Defer a load only in the CLI's command dispatch (src/cli/commands) or the package's lazy entries (src/codex/client/lazy-entries.ts); import statically here.",
        },
        {
          selector: "CallExpression[callee.name='createRequire']",
          message: "Load a package on first use with requirePackage() (src/load-module.ts).",
        },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...NO_ENUM_NO_NAMESPACE,
        {
          // a focused test committed by mistake would silently skip the rest of its file, in CI too
          selector: "MemberExpression[property.name='only']",
          message: "Remove `.only` before committing: it skips every other test of the file.",
        },
      ],
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
  },
);
