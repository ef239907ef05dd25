/**
 * `~/.npmrc` is read for npm's prefix before any candidate is looked for: whatever sits there (a FIFO, a device, a
 * huge file) costs at most a missing prefix, promptly; a dotfile manager's symlink to a regular file is still read.
 */
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readNpmPrefix } from "../../src/discovery/native-host.js";
import { tempDir } from "../helpers/temp.js";

const PROMPT_MS = 2000;

/** `readNpmPrefix(file)`, failing the test when it has not settled within {@link PROMPT_MS}. */
async function readPromptly(file: string): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`readNpmPrefix(${file}) did not settle`)), PROMPT_MS);
  });
  try {
    return await Promise.race([readNpmPrefix(file), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(process.platform === "win32")("reading ~/.npmrc", () => {
  it("a FIFO is no prefix at once, never a read that waits for a writer", async () => {
    const npmrc = path.join(await tempDir("npmrc"), ".npmrc");
    execFileSync("mkfifo", [npmrc]);
    expect(await readPromptly(npmrc)).toBeNull();
  });

  it("a symlink to a device is no prefix at once", async () => {
    const npmrc = path.join(await tempDir("npmrc"), ".npmrc");
    await fs.symlink("/dev/zero", npmrc);
    expect(await readPromptly(npmrc)).toBeNull();
  });

  it("a file larger than any .npmrc is not read", async () => {
    const npmrc = path.join(await tempDir("npmrc"), ".npmrc");
    await fs.writeFile(npmrc, `prefix=/opt/npm\n${"#".repeat(2 * 1024 * 1024)}\n`);
    expect(await readPromptly(npmrc)).toBeNull();
  });

  it("a symlink to a regular file (a dotfile manager's) is followed and read", async () => {
    const dir = await tempDir("npmrc");
    await fs.writeFile(path.join(dir, "dotfiles-npmrc"), "prefix = /opt/npm-global\n");
    await fs.symlink(path.join(dir, "dotfiles-npmrc"), path.join(dir, ".npmrc"));
    expect(await readPromptly(path.join(dir, ".npmrc"))).toBe("/opt/npm-global");
  });
});
