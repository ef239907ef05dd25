import { describe, expect, it } from "vitest";
import { FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { runClaudeCli } from "./helpers/claude-cli-harness.js";

describe("rennet claude run|exec --resume", () => {
  it("continues the session given with spaces around it, trimmed", async () => {
    const { code, fake } = await runClaudeCli([
      "claude",
      "run",
      "--resume",
      ` ${FAKE_CLAUDE_SESSION_ID} `,
      "more",
    ]);
    expect(code).toBe(0);
    expect(fake.launches[0]!.spec.args).toContain(`--resume=${FAKE_CLAUDE_SESSION_ID}`);
  });

  it("passes an upper-case session id in lower case, the name Claude Code finds its transcript by", async () => {
    const { code, fake } = await runClaudeCli([
      "claude",
      "run",
      "--resume",
      FAKE_CLAUDE_SESSION_ID.toUpperCase(),
      "more",
    ]);
    expect(code).toBe(0);
    expect(fake.launches[0]!.spec.args).toContain(`--resume=${FAKE_CLAUDE_SESSION_ID}`);
  });

  // ids the Codex check takes but Claude Code's does not: the CLI checks with the harness library's own rule
  it.each([
    ["a urn:uuid: id", `urn:uuid:${FAKE_CLAUDE_SESSION_ID}`],
    ["a UUID without hyphens", FAKE_CLAUDE_SESSION_ID.replaceAll("-", "")],
    ["a UUID with some hyphens left out", FAKE_CLAUDE_SESSION_ID.replace("-", "")],
    ["a thread name", "thr-kept-1"],
  ])(
    "%s is a usage error (exit 2) naming the id and the accepted form, before anything starts",
    async (_, id) => {
      for (const command of ["run", "exec"]) {
        const schema = command === "exec" ? ["--schema", "/dev/null"] : [];
        const { code, stderr, fake } = await runClaudeCli([
          "claude",
          command,
          ...schema,
          "--resume",
          id,
          "more",
        ]);
        expect(stderr.text).not.toContain("internal error");
        expect(code).toBe(2);
        expect(stderr.text).toContain(
          `--resume: resume ${JSON.stringify(id)} is not a Claude Code session id`,
        );
        expect(stderr.text).toContain("a UUID in its 8-4-4-4-12 form");
        expect(stderr.text).toContain(`rennet claude ${command} --help`);
        expect(fake.launches).toEqual([]);
      }
    },
  );
});
