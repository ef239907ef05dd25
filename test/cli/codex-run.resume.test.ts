import { describe, expect, it } from "vitest";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { runCli } from "./helpers/cli-harness.js";

const KEPT = "0199f0fa-4e00-7000-8000-00000000cafe";

describe("rennet codex run --resume", () => {
  it("continues the given thread with thread/resume instead of starting one", async () => {
    const { code, fake } = await runCli(["codex", "run", "--json", "--resume", KEPT, "and now?"], {
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(code).toBe(0);
    const peer = fake.launches[0]?.peer;
    expect(peer?.requestsOf("thread/start")).toEqual([]);
    expect(peer?.requestsOf("thread/resume")[0]?.params).toMatchObject({ threadId: KEPT });
  });

  it("a --resume that is not a thread id is a usage error before anything starts", async () => {
    const { code, stderr, fake } = await runCli(["codex", "run", "--resume", "thr-kept-1", "hi"], {
      script: { turn: fakeSteps.textTurn("never") },
    });
    expect(code).toBe(2);
    expect(stderr.text).toContain('--resume: resume "thr-kept-1" is not a thread id');
    expect(fake.launches).toHaveLength(0);
  });

  it("an empty --resume is a usage error before anything starts", async () => {
    const { code, stderr, fake } = await runCli(["codex", "run", "--resume", " ", "hi"], {
      script: { turn: fakeSteps.textTurn("never") },
    });
    expect(code).toBe(2);
    expect(stderr.text).toContain("--resume is empty");
    expect(fake.launches).toHaveLength(0);
  });
});
