import { defineConfig } from "vitest/config";

/**
 * Two projects: `hermetic` (fake stdio peers, fake executables, pure functions: fast, runs anywhere) and `real`
 * (starts the real codex binary offline against the testkit's loopback model; `RENNET_TEST_CODEX` selects the
 * binary, default the pinned devDependency). `npm test` runs both; `npm run test:hermetic` / `test:real` one.
 */
const REAL = [
  "test/real/**/*.test.ts",
  "test/cli/codex-doctor.test.ts",
  "test/cli/mcp-isolation-command.test.ts",
  "test/codex/discovery/discover-real-codex.test.ts",
  "test/process/real-codex-process.test.ts",
  "test/protocol/requests-match-schema.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "hermetic",
          include: ["test/**/*.test.ts"],
          exclude: REAL,
          // type-level tests (`expectTypeOf`): `tsc` checks test/types/*.test-d.ts as part of this project
          typecheck: { enabled: true, include: ["test/types/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
        },
      },
      {
        extends: true,
        test: { name: "real", include: REAL, globalSetup: ["test/helpers/real-suite-setup.ts"] },
      },
    ],
  },
});
