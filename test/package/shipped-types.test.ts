/**
 * The declarations that ship (`npm pack`'s file list: dist/ without dist/.types, only what the `types` entry
 * points reach) are complete: a strict consumer program, type-checked with `skipLibCheck: false` against a copy
 * of exactly the packed files, compiles. A declaration left out that a shipped one imports fails here.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";

const CONSUMER = `
import { createClaudeCode, createCodex, defineTool, RennetError, type HarnessEvent, type TerminalEvent } from "rennet-adapters";
import { startLoopbackModelServer, modelScenarios } from "rennet-adapters/testkit";

const tool = defineTool({
  name: "ticket",
  description: "fetch a ticket",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } as const,
  handler: (args) => args.id.toUpperCase(),
});

export async function consume(signal: AbortSignal): Promise<string> {
  const server = await startLoopbackModelServer({ scenario: modelScenarios.text("hi") });
  const harness = Math.random() > 0.5 ? createCodex() : createClaudeCode();
  const session = harness.runStreamed({ prompt: "go", cwd: "/tmp", signal, tools: [tool] });
  for await (const event of session.events as AsyncIterable<HarnessEvent>) {
    if (event.type === "text.delta") console.log(event.text);
  }
  const terminal: TerminalEvent = await session.result;
  const chat = harness.conversation({ cwd: "/tmp", tools: [tool] });
  const turn = await chat.run("go on", { signal });
  console.log(turn.finalMessage, chat.threadId);
  await server.close();
  if (terminal.outcome === "failed") return terminal.failure.message;
  const error: unknown = new Error("x");
  return error instanceof RennetError ? error.code : (terminal.finalMessage ?? "");
}
`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  return (JSON.parse(out) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
}

describe("the shipped declarations", () => {
  it("leave out dist/.types and the declarations no entry point reaches, yet a strict consumer compiles", () => {
    const files = packedFiles();
    expect(files.filter((file) => file.startsWith("dist/.types/"))).toEqual([]);
    expect(files).not.toContain("dist/cli/main.d.ts");
    expect(files).toContain("dist/cli/main.js");
    expect(files).toContain("dist/index.d.ts");

    const consumer = mkdtempSync(path.join(os.tmpdir(), "rennet-shipped-types-"));
    dirs.push(consumer);
    const installed = path.join(consumer, "node_modules", "rennet-adapters");
    for (const file of files) {
      mkdirSync(path.dirname(path.join(installed, file)), { recursive: true });
      cpSync(path.join(REPO_ROOT, file), path.join(installed, file));
    }
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    for (const dependency of Object.keys(pkg.dependencies)) {
      const link = path.join(consumer, "node_modules", dependency);
      mkdirSync(path.dirname(link), { recursive: true }); // a scoped name (`@scope/name`) needs its scope folder
      symlinkSync(path.join(REPO_ROOT, "node_modules", dependency), link);
    }
    writeFileSync(path.join(consumer, "consumer.ts"), CONSUMER);
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [path.join(REPO_ROOT, "node_modules", "@types")],
        },
        files: ["consumer.ts"],
      }),
    );
    writeFileSync(path.join(consumer, "package.json"), '{ "type": "module" }\n');
    const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    let output = "";
    try {
      execFileSync(process.execPath, [tsc, "-p", consumer], { encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  }, 120_000);
});
