import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TerminalEvent } from "../../src/harness/events.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { runClaudeCli, startClaudeCli } from "./helpers/claude-cli-harness.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-claude-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SECRET_PROMPT = "the prompt stays off the command line";

describe("rennet claude run", () => {
  it("--json streams Claude Code's turn as harness events ending with the terminal, and exits 0", async () => {
    const { code, events, fake, stderr } = await runClaudeCli(
      ["claude", "run", "--json", "--cwd", dir, SECRET_PROMPT],
      { script: { turn: claudeSteps.textTurn("hello from claude", ["hello ", "from claude"]) } },
    );
    expect(stderr.text).toBe("");
    expect(code).toBe(0);
    const all = events();
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.every((e) => e.harness === "claude-code")).toBe(true);
    expect(all.filter((e) => e.type === "text.delta").map((e) => (e as { text: string }).text)).toEqual([
      "hello ",
      "from claude",
    ]);
    const terminal = all.at(-1) as TerminalEvent;
    expect(terminal).toMatchObject({
      type: "terminal",
      outcome: "completed",
      threadId: FAKE_CLAUDE_SESSION_ID,
    });
    const launch = fake.launches[0]!;
    expect(launch.spec.cwd).toBe(dir);
    expect(launch.spec.args).toEqual(
      expect.arrayContaining([
        "--no-session-persistence",
        "--setting-sources=user",
        "--strict-mcp-config",
        '--mcp-config={"mcpServers":{}}',
        "--permission-mode=bypassPermissions",
      ]),
    );
    expect(launch.spec.args.join(" ")).not.toContain(SECRET_PROMPT);
    expect(JSON.stringify(launch.peer.linesOf("user"))).toContain(SECRET_PROMPT);
  });

  it("prints the answer on stdout and the outcome on stderr by default", async () => {
    const { code, stdout, stderr } = await runClaudeCli(["claude", "run", "--cwd", dir, "hi"], {
      script: { turn: claudeSteps.bashTurn("ls", { output: "a.txt" }, "listed it") },
    });
    expect(code).toBe(0);
    expect(stdout.text).toBe("listed it\n");
    expect(stderr.text).toContain("$ ls");
    expect(stderr.text).toContain("✓ completed");
  });

  it("passes each flag to claude's command line", async () => {
    const { code, fake } = await runClaudeCli(
      [
        "claude",
        "run",
        "--cwd",
        dir,
        "--model",
        "claude-x",
        "--effort",
        "high",
        "--max-budget-usd",
        "0.5",
        "--keep-thread",
        "--trust-project",
        "--mcp-server",
        "probe=http://127.0.0.1:4321/mcp",
        "hi",
      ],
      {},
    );
    expect(code).toBe(0);
    const args = fake.launches[0]!.spec.args;
    expect(args).toEqual(
      expect.arrayContaining([
        "--model=claude-x",
        "--effort=high",
        "--max-budget-usd=0.5",
        "--setting-sources=user,project,local",
        "--strict-mcp-config",
        '--mcp-config={"mcpServers":{"probe":{"type":"http","url":"http://127.0.0.1:4321/mcp"}}}',
      ]),
    );
    expect(args).not.toContain("--no-session-persistence");
  });

  it("--resume continues the session and keeps it", async () => {
    const { code, fake } = await runClaudeCli(["claude", "run", "--resume", FAKE_CLAUDE_SESSION_ID, "more"]);
    expect(code).toBe(0);
    const args = fake.launches[0]!.spec.args;
    expect(args).toContain(`--resume=${FAKE_CLAUDE_SESSION_ID}`);
    expect(args).not.toContain("--no-session-persistence");
  });

  it.each([
    [["--effort", "extreme"], "--effort"],
    [["--max-budget-usd", "-1"], "--max-budget-usd"],
    [["--claude-bin", ""], "--claude-bin is empty"],
    [["--codex-bin", "/x"], "unknown option '--codex-bin'"],
    [["--reasoning-summary", "auto"], "unknown option '--reasoning-summary'"],
    [["--mcp-server", "x=https://example.com/mcp"], "--mcp-server"],
    [["--cwd", "/no/such/dir"], "--cwd"],
    // Claude Code takes the model on its command line: the library refuses a control character
    [["--model", "opus\n--dangerously-skip-permissions"], "--model: model"],
    [["--model", "opus\u007f"], "without control characters"],
  ])("%j is a usage error (exit 2) before anything starts", async (flags, message) => {
    const { code, stderr, fake } = await runClaudeCli(["claude", "run", ...flags, "hi"]);
    expect(code).toBe(2);
    expect(stderr.text).toContain(message);
    expect(stderr.text).toContain("rennet claude run --help");
    expect(fake.launches).toEqual([]);
  });

  it("an image of a type Claude Code does not take is a usage error before discovery", async () => {
    const image = join(dir, "shot.bmp");
    await writeFile(image, "BM");
    const { code, stderr, fake } = await runClaudeCli(["claude", "run", "--image", image, "hi"]);
    expect(code).toBe(2);
    expect(stderr.text).toContain(
      `--image: image ${image}: Claude Code takes PNG, JPEG, GIF and WebP images`,
    );
    expect(stderr.text).not.toContain("internal error");
    expect(fake.launches).toEqual([]);
  });

  it("a --max-duration it refuses names that flag alone", async () => {
    const { code, stderr } = await runClaudeCli(["claude", "run", "--max-duration", "0", "hi"]);
    expect(code).toBe(2);
    expect(stderr.text).toContain("option '--max-duration <seconds>' argument '0' is invalid");
    expect(stderr.text).not.toContain("--timeout");
  });

  it("an empty prompt is a usage error", async () => {
    const { code, fake } = await runClaudeCli(["claude", "run", "   "]);
    expect(code).toBe(2);
    expect(fake.launches).toEqual([]);
  });

  it("usage errors name Claude Code and this command, never Codex", async () => {
    const file = join(dir, "a-file");
    await writeFile(file, "");
    const notADir = await runClaudeCli(["claude", "run", "--cwd", file, "hi"]);
    expect(notADir.code).toBe(2);
    expect(notADir.stderr.text).toContain("pass the directory Claude Code should work in");
    const emptyStdin = await runClaudeCli(["claude", "run", "-"], { stdin: " \n" });
    expect(emptyStdin.code).toBe(2);
    expect(emptyStdin.stderr.text).toContain("echo 'fix the tests' | rennet claude run -");
    for (const { stderr, fake } of [notADir, emptyStdin]) {
      expect(stderr.text).not.toMatch(/codex/i);
      expect(fake.launches).toEqual([]);
    }
  });

  it("a provider error is a failed turn (exit 1) with Claude's message", async () => {
    const { code, stderr } = await runClaudeCli(["claude", "run", "hi"], {
      script: { turn: [claudeSteps.init(), ...claudeSteps.apiError(529, "API Error: 529 Overloaded")] },
    });
    expect(code).toBe(1);
    expect(stderr.text).toContain("✗ failed (turn)");
    expect(stderr.text).toContain("529 Overloaded");
  });

  it("SIGINT sends Claude's interrupt, and the cancelled turn exits 130 with its terminal event", async () => {
    const run = startClaudeCli(["claude", "run", "--json", "hi"], {
      script: { turn: [claudeSteps.init(), { delayMs: 10_000 }] },
    });
    await vi.waitFor(() => expect(run.events().some((e) => e.type === "turn.started")).toBe(true));
    run.signals.emit("SIGINT");
    expect(await run.exit).toBe(130);
    const interrupts = run.fake.peer
      .linesOf("control_request")
      .filter((line) => (line.request as { subtype?: string }).subtype === "interrupt");
    expect(interrupts).toHaveLength(1);
    expect(run.events().at(-1)).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { via: "interrupted" },
    });
    expect(run.stderr.text).toContain("SIGINT: cancelling the turn (claude gets up to 2 s to stop");
    expect(run.stderr.text).not.toMatch(/codex/i);
  });

  it.runIf(process.getuid?.() === 0)(
    "as root without IS_SANDBOX=1 it fails before starting claude, naming the fix",
    async () => {
      const { code, stderr, fake } = await runClaudeCli(["claude", "run", "hi"], { env: {} });
      expect(code).toBe(1);
      expect(stderr.text).toContain("IS_SANDBOX=1");
      expect(fake.launches).toEqual([]);
    },
  );

  it("a --claude-bin that does not exist is exit 3 naming the path", async () => {
    const { code, stderr } = await runClaudeCli(
      ["claude", "run", "--claude-bin", join(dir, "no-such-claude"), "hi"],
      { fake: false },
    );
    expect(code).toBe(3);
    expect(stderr.text).toContain("no-such-claude");
  });

  it("without a claude anywhere discovery finds none: exit 3 pointing at the doctor", async () => {
    const { code, stderr } = await runClaudeCli(["claude", "run", "hi"], {
      fake: false,
      env: { HOME: dir, PATH: dir, IS_SANDBOX: "1", SHELL: "/nonexistent-shell" },
    });
    expect(code).toBe(3);
    expect(stderr.text).toContain("rennet claude doctor");
  });

  it("has help in the codex commands' style: the group lists every claude command", async () => {
    const group = await runClaudeCli(["claude", "--help"]);
    expect(group.code).toBe(0);
    for (const command of ["run [options] <prompt>", "exec [options] <prompt>", "doctor", "mcp-isolation"])
      expect(group.stdout.text).toContain(`  ${command}`);
    const run = await runClaudeCli(["claude", "run", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout.text).toMatch(/^Usage: rennet claude run \[options\] <prompt>\n/);
    for (const text of [
      "--claude-bin <path>",
      "--effort <level>",
      "IS_SANDBOX=1",
      "Exit codes:",
      "RENNET_CLAUDE_BIN",
    ])
      expect(run.stdout.text).toContain(text);
    expect(run.stdout.text).not.toContain("--codex-bin");
  });
});
