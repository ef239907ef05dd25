import { closeSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readPrompt } from "../../src/cli/read-prompt.js";

/** A stdin of `count` times `chunk` (as from `yes`), and how many chunks were read from it. */
function longStdin(chunk: string, count: number): { stream: Readable; reads: () => number } {
  let reads = 0;
  const stream = new Readable({
    read() {
      reads += 1;
      this.push(reads > count ? null : chunk);
    },
  });
  return { stream, reads: () => reads };
}

describe("readPrompt", () => {
  it("reads all of stdin for `-`", async () => {
    expect(
      await readPrompt("-", Readable.from([Buffer.from("fix "), Buffer.from("it")]), { command: "c" }),
    ).toBe("fix it");
  });

  it("a stdin larger than it can hold is a usage error as soon as it is, and the rest is not read", async () => {
    const stdin = longStdin("x".repeat(1024), 1000);
    const error: unknown = await readPrompt("-", stdin.stream, {
      command: "rennet codex run",
      maxBytes: 10_000,
    }).then(
      () => expect.unreachable("expected a usage error"),
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: "CLI_USAGE", command: "rennet codex run" });
    expect((error as Error).message).toBe(
      "the prompt read from stdin is larger than 10000 bytes, more than rennet can hold: pass a shorter prompt",
    );
    const reads = stdin.reads();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stdin.reads()).toBe(reads);
    expect(reads).toBeLessThan(100); // of 1000: what the stream reads ahead, no more
  });

  it("a stdin that is not UTF-8 (a Latin-1 file) is a usage error, not a prompt silently altered", async () => {
    const latin1 = Readable.from([Buffer.from("caf"), Buffer.from([0xe9, 0x0a])]);
    const error: unknown = await readPrompt("-", latin1, { command: "rennet codex run" }).then(
      () => expect.unreachable("expected a usage error"),
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: "CLI_USAGE", command: "rennet codex run" });
    expect((error as Error).message).toBe(
      "the prompt read from stdin is not UTF-8 text: convert it first, e.g. `iconv -f latin1 -t utf-8 task.md | rennet codex run -`",
    );
  });

  it("a stdin in UTF-8 is read whole, a character split between chunks and a byte order mark included", async () => {
    const [first, second] = [Buffer.from("\ufeffcafé 界"), Buffer.from("\ufeffcafé 界")];
    const split = Readable.from([first.subarray(0, 5), first.subarray(5)]);
    expect(await readPrompt("-", split, { command: "c" })).toBe("\ufeffcafé 界");
    expect(await readPrompt("-", Readable.from([second]), { command: "c" })).toBe("\ufeffcafé 界");
  });

  it("a stdin of exactly the limit is read whole", async () => {
    const prompt = await readPrompt("-", Readable.from([Buffer.from("y".repeat(100))]), {
      command: "c",
      maxBytes: 100,
    });
    expect(prompt).toHaveLength(100);
  });

  it("a stdin that is a directory (`- < dir`) is named as such, not as an empty prompt", async () => {
    const fd = openSync(tmpdir(), "r");
    try {
      const stdin = Object.assign(Readable.from([]), { fd });
      const error: unknown = await readPrompt("-", stdin, { command: "rennet codex run" }).then(
        () => expect.unreachable("expected a usage error"),
        (reason: unknown) => reason,
      );
      expect((error as Error).message).toBe(
        "stdin is a directory, not the prompt text: redirect a file (`rennet codex run - < task.md`) or pipe the prompt in",
      );
    } finally {
      closeSync(fd);
    }
  });
});
