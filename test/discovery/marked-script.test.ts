/**
 * The one script whose text discovery reads (npm's launcher, for the marker's needle) is read bounded: a file at
 * that path too large to be the launcher is not marked, and never loaded whole.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inspectNative } from "../../src/discovery/native-host.js";
import { tempDir } from "../helpers/temp.js";

const MARKER = { realpathSuffix: "/@scope/tool/bin/tool.js", needle: "tool-path" };

async function launcherScript(text: string): Promise<string> {
  const dir = path.join(await tempDir("marked-script"), "node_modules", "@scope", "tool", "bin");
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, "tool.js");
  await fs.writeFile(file, text, { mode: 0o755 });
  return file;
}

describe.skipIf(process.platform === "win32")("the marker's script", () => {
  it("a launcher of a launcher's size is read for the needle", async () => {
    const file = await launcherScript("#!/usr/bin/env node\nconst dir = 'tool-path';\n");
    expect((await inspectNative("linux", file, MARKER))?.scriptMarked).toBe(true);
  });

  it("a file far larger than any launcher is not read whole: its needle past the limit is not seen", async () => {
    const file = await launcherScript(`#!/usr/bin/env node\n${"//\n".repeat(1024 * 1024)}tool-path\n`);
    expect((await inspectNative("linux", file, MARKER))?.scriptMarked).toBe(false);
  });
});
