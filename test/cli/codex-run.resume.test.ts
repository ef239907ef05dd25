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

  // codex parses a thread id as Rust's Uuid::parse_str does; these forms it refuses (checked on 0.72 and 0.171)
  it.each([
    ["a UUID with some hyphens left out", KEPT.replace("-", "")],
    ["a hyphenless UUID after urn:uuid:", `urn:uuid:${KEPT.replaceAll("-", "")}`],
    ["a UUID with one digit too many", `${KEPT}0`],
  ])("%s is a usage error naming the id and the accepted form, before anything starts", async (_, id) => {
    const { code, stderr, fake } = await runCli(["codex", "run", "--resume", id, "hi"], {
      script: { turn: fakeSteps.textTurn("never") },
    });
    expect(code).toBe(2);
    expect(stderr.text).toContain(`--resume: resume ${JSON.stringify(id)} is not a thread id`);
    expect(stderr.text).toContain("a UUID in its 8-4-4-4-12 form");
    expect(stderr.text).toContain("rennet codex run --help");
    expect(fake.launches).toHaveLength(0);
  });

  // and these it takes, as the thread it names
  it.each([
    ["urn:uuid:", `urn:uuid:${KEPT}`],
    ["without hyphens", KEPT.replaceAll("-", "")],
    ["in braces", `{${KEPT}}`],
    ["in upper case", KEPT.toUpperCase()],
  ])("a thread id %s is passed to thread/resume as given", async (_, id) => {
    const { code, fake } = await runCli(["codex", "run", "--json", "--resume", id, "and now?"], {
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(code).toBe(0);
    expect(fake.launches[0]?.peer.requestsOf("thread/resume")[0]?.params).toMatchObject({ threadId: id });
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
