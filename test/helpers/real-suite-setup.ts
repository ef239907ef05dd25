import { TEST_CODEX_BIN, testCodexAvailable, testCodexVersion } from "./codex-bin.js";

/**
 * Global setup of the real-binary project: a missing codex fails the suite (it is never skipped), and the
 * binary under test is printed so a run against `RENNET_TEST_CODEX` says which codex it proved.
 */
export default function setup(): void {
  if (!testCodexAvailable()) {
    throw new Error(
      `the codex for real-binary tests is missing at ${TEST_CODEX_BIN}: run \`npm install\` (the pinned ` +
        "@openai/codex devDependency) or point RENNET_TEST_CODEX at a codex executable",
    );
  }
  console.log(
    `real-binary tests run codex ${testCodexVersion() ?? "(unknown version)"} at ${TEST_CODEX_BIN}`,
  );
}
