/**
 * readBoundedFile and the state-directory files read through it (the drift cache, the spawn registry): a FIFO, a
 * device, a symlink or an oversized file is refused at once with a reason, never read, never waited on.
 */
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readDriftCache } from "../src/codex/versions/drift/drift-cache.js";
import { reapOrphans } from "../src/process/reap-orphans.js";
import { readBoundedFile } from "../src/read-bounded-file.js";
import { tempDir } from "./helpers/temp.js";

/** `promise`, or a rejection naming `what` after `ms` (a blocked read would never settle). */
async function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("readBoundedFile", () => {
  it("reads a regular file whole", async () => {
    const file = path.join(await tempDir("bounded"), "a.json");
    await fs.writeFile(file, "x".repeat(200_000));
    const read = await readBoundedFile(file, 200_000);
    expect(read.type === "read" && read.bytes.length).toBe(200_000);
  });

  it("says why it read nothing", async () => {
    const dir = await tempDir("bounded");
    const big = path.join(dir, "big");
    await fs.writeFile(big, "x".repeat(11));
    expect(await readBoundedFile(big, 10)).toEqual({
      type: "unreadable",
      reason: "too-large",
      problem: "too large to read (11 bytes; the limit is 10)",
    });
    expect(await readBoundedFile(path.join(dir, "none"), 10)).toMatchObject({ reason: "missing" });
    expect(await readBoundedFile(dir, 10)).toMatchObject({ reason: "not-a-file" });
  });

  it.skipIf(process.platform === "win32")("refuses a FIFO, a device and a symlink at once", async () => {
    const dir = await tempDir("bounded");
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(await within(readBoundedFile(fifo, 10), "a FIFO")).toMatchObject({ reason: "not-a-file" });
    const link = path.join(dir, "zero");
    await fs.symlink("/dev/zero", link);
    expect(await within(readBoundedFile(link, 10), "a symlink")).toMatchObject({ reason: "symlink" });
    expect(await within(readBoundedFile("/dev/zero", 10), "a device")).toMatchObject({
      reason: "not-a-file",
    });
  });
});

describe.skipIf(process.platform === "win32")("state-directory files that are FIFOs", () => {
  it("a FIFO drift cache is no hit, at once", async () => {
    const dir = await tempDir("drift-state");
    execFileSync("mkfifo", [path.join(dir, "drift-cache.json")]);
    expect(await within(readDriftCache(dir, "k"), "readDriftCache")).toBeNull();
  });

  it("a FIFO named like a spawn record is a problem for the reaper, not a hang", async () => {
    const dir = await tempDir("registry");
    await fs.chmod(dir, 0o700);
    const fifo = path.join(dir, "1-2-abcd.json");
    execFileSync("mkfifo", [fifo]);
    const report = await within(reapOrphans({ dir }), "reapOrphans");
    expect(report).toMatchObject({ reaped: 0, kept: 0, killed: [] });
    expect(report.problems).toEqual([`${fifo}: not a regular file: not read`]);
  });
});
