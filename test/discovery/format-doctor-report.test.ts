import { describe, expect, it } from "vitest";
import type { DiscoveryReport, ProgramFacts } from "../../src/discovery/discovery-report.js";
import { formatDoctorReport } from "../../src/discovery/format-doctor-report.js";

const CODEX: ProgramFacts = {
  name: "Codex",
  executable: "codex",
  overrideVariable: "RENNET_CODEX_BIN",
  install: "npm i -g @openai/codex, or the standalone installer",
  upgrade: "npm i -g @openai/codex@latest",
  doctorCommand: "rennet codex doctor",
  launchArgs: ["app-server"],
};

const available: DiscoveryReport = {
  program: CODEX,
  available: true,
  chosen: {
    launch: {
      type: "node-launcher",
      node: "/h/.asdf/installs/nodejs/22.1.0/bin/node",
      script: "/h/.asdf/installs/nodejs/22.1.0/bin/codex",
      env: { PATH: "/h/.asdf/shims:/usr/bin" },
    },
    path: "/h/.asdf/installs/nodejs/22.1.0/bin/codex",
    version: "0.171.0",
    source: "known-location",
  },
  candidates: [
    {
      rank: 1,
      source: "env-override",
      label: "RENNET_CODEX_BIN",
      path: "/opt/broken/codex",
      outcome: "failed",
      chosen: false,
      version: null,
      launch: null,
      cached: false,
      probes: [
        { probe: "executable", result: "pass", ms: 0 },
        {
          probe: "version",
          result: "fail",
          ms: 12,
          reason: "exited with code 127: env: 'node': No such file or directory",
        },
        { probe: "handshake", result: "skipped", ms: 0, reason: "an earlier probe failed" },
      ],
      reason: "version: exited with code 127: env: 'node': No such file or directory",
    },
    {
      rank: 2,
      source: "known-location",
      label: "asdf node installs",
      path: "/h/.asdf/installs/nodejs/22.1.0/bin/codex",
      outcome: "passed",
      chosen: true,
      version: "0.171.0",
      launch: "node-launcher",
      cached: true,
      probes: [
        { probe: "executable", result: "pass", ms: 0 },
        {
          probe: "version",
          result: "pass",
          ms: 45,
          reason: "direct launch failed (exited with code 127); ran through the node beside it",
        },
        { probe: "handshake", result: "pass", ms: 1310 },
      ],
    },
    {
      rank: 3,
      source: "desktop-app",
      label: "ChatGPT.app bundle",
      path: "/Applications/ChatGPT.app/Contents/Resources/codex",
      outcome: "not-probed",
      chosen: false,
      version: null,
      launch: null,
      cached: false,
      probes: [],
      reason: "not needed: a better-ranked candidate passed",
    },
  ],
  elapsedMs: 4,
  locus: { type: "native" },
  platform: "darwin",
  loginShell: { type: "ok", shell: "/bin/zsh", flags: "-i -l", entries: 9, ms: 420, cached: true },
  cacheFile: "/tmp/rennet-501/probe-cache.json",
};

describe("formatDoctorReport", () => {
  it("renders the verdict, the chosen launch, the login shell and every candidate with its probes", () => {
    const text = formatDoctorReport(available, { color: false });
    expect(text.includes("\u001b[")).toBe(false);
    expect(text).toBe(
      [
        "Codex: available",
        "  chosen  codex 0.171.0  /h/.asdf/installs/nodejs/22.1.0/bin/codex",
        "          from known-location · run through the node beside it",
        "  launch  /h/.asdf/installs/nodejs/22.1.0/bin/node /h/.asdf/installs/nodejs/22.1.0/bin/codex app-server",
        "          with PATH = login-shell PATH + inherited PATH",
        "",
        "Locus: native (darwin)",
        "Login shell: /bin/zsh -i -l → 9 PATH entries, 420 ms (cached)",
        "Probe cache: /tmp/rennet-501/probe-cache.json",
        "",
        "Candidates, best first:",
        "  ✘ 1. /opt/broken/codex",
        "       env-override (RENNET_CODEX_BIN)",
        "       executable ✔ 0 ms   version ✘ 12 ms   handshake –",
        "       version: exited with code 127: env: 'node': No such file or directory",
        "  ✔ 2. /h/.asdf/installs/nodejs/22.1.0/bin/codex  ← chosen",
        "       known-location (asdf node installs) · version 0.171.0 · launch: node-launcher · cached",
        "       executable ✔ 0 ms   version ✔ 45 ms   handshake ✔ 1.3 s",
        "       version: direct launch failed (exited with code 127); ran through the node beside it",
        "  – 3. /Applications/ChatGPT.app/Contents/Resources/codex",
        "       desktop-app (ChatGPT.app bundle)",
        "       not probed: not needed: a better-ranked candidate passed",
        "",
        "Discovery took 4 ms.",
        "",
      ].join("\n"),
    );
  });

  it("without options, as docs/errors.md calls it (formatDoctorReport(report)), renders without colour", () => {
    const format = formatDoctorReport as (report: DiscoveryReport) => string;
    expect(format(available)).toBe(formatDoctorReport(available, { color: false }));
  });

  it("colors only when asked", () => {
    expect(formatDoctorReport(available, { color: true })).toContain("\u001b[32mavailable\u001b[39m");
  });

  it("says why Codex is unavailable and how to fix it", () => {
    const text = formatDoctorReport(
      {
        ...available,
        available: false,
        chosen: null,
        candidates: [],
        reason: "no codex executable found in 21 directories",
        locus: { type: "wsl", distro: "Ubuntu" },
        platform: "linux",
        loginShell: {
          type: "failed",
          shell: "/bin/bash",
          reason: "-i -l: timed out after 5000 ms",
          ms: 5000,
          cached: true,
        },
      },
      { color: false },
    );
    expect(text).toContain(
      "Codex: unavailable\n  reason  no codex executable found in 21 directories\n  fix     install Codex",
    );
    expect(text).toContain('Locus: WSL distribution "Ubuntu" (linux)');
    expect(text).toContain("Login shell: /bin/bash failed after 5.0 s: -i -l: timed out after 5000 ms");
    expect(text).toContain("No candidates found.");
  });

  it("names another program and its fixes from the report alone", () => {
    const program: ProgramFacts = {
      name: "Tool",
      executable: "tool",
      overrideVariable: "RENNET_TOOL_BIN",
      install: "npm i -g tool",
      upgrade: "tool update",
      doctorCommand: "rennet tool doctor",
      launchArgs: ["-p"],
    };
    const chosen = { ...available, program };
    const text = formatDoctorReport(chosen, { color: false });
    expect(text).toContain("Tool: available\n  chosen  tool 0.171.0");
    expect(text).toContain("/bin/codex -p\n");
    const missing = { ...chosen, available: false, chosen: null, candidates: [], reason: "none" };
    expect(formatDoctorReport(missing, { color: false })).toContain(
      "  fix     install Tool (npm i -g tool), or set RENNET_TOOL_BIN to a working tool executable; after a fix, " +
        "run `rennet tool doctor --refresh`",
    );
    const tooOld = { ...missing, code: "TOOL_UNSUPPORTED_VERSION" };
    expect(formatDoctorReport(tooOld, { color: false })).toContain(
      "  fix     upgrade Tool (tool update), or set RENNET_TOOL_BIN to a newer tool executable\n",
    );
  });
});

describe("formatDoctorReport: an explicit path", () => {
  /** The report of `--codex-bin /opt/codex` failing: its one candidate, labelled with the flag. */
  function explicitFailure(reason: string, code?: string): DiscoveryReport {
    const candidate = { ...available.candidates[0]!, label: "--codex-bin", path: "/opt/codex", reason };
    return {
      ...available,
      available: false,
      chosen: null,
      candidates: [candidate],
      reason: `--codex-bin /opt/codex: ${reason}`,
      ...(code === undefined ? {} : { code }),
    };
  }

  it("fixes the flag, never the variable it overrides (the variable is not read while the flag is given)", () => {
    const text = formatDoctorReport(explicitFailure("executable: not found"), { color: false });
    expect(text).toContain(
      "  fix     give --codex-bin a working codex executable, or leave it out to let discovery search; " +
        "after a fix, run `rennet codex doctor --refresh`\n",
    );
    expect(text).not.toContain("RENNET_CODEX_BIN");
  });

  it("an explicit codex that is too old is upgraded or replaced through the flag", () => {
    const report = explicitFailure("handshake: codex 0.66.0 is older", "CODEX_UNSUPPORTED_VERSION");
    expect(formatDoctorReport(report, { color: false })).toContain(
      "  fix     upgrade Codex (npm i -g @openai/codex@latest), or give --codex-bin a newer codex executable\n",
    );
  });
});

describe("formatDoctorReport: outside text", () => {
  /** A title change, a screen clear, a C1 CSI, a bidi override and a zero-width space: none may reach a terminal. */
  const HOSTILE = "\u001b]0;TITLE\u0007\u001b[2J\u009b31m\u202etxt\u200b";
  const ESCAPED = "\\u001b]0;TITLE\\u0007\\u001b[2J\\u009b31m\\u202etxt\\u200b";
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

  it("escapes every text that came from a binary, the cache or the environment, in every section", () => {
    const [broken, chosen, skipped] = available.candidates;
    const hostile: DiscoveryReport = {
      ...available,
      chosen: {
        ...available.chosen!,
        path: `/h/${HOSTILE}/codex`,
        version: `0.171.0${HOSTILE}`,
        launch: { type: "native", command: `/h/${HOSTILE}/codex` },
      },
      candidates: [
        {
          ...broken!,
          path: `/opt/${HOSTILE}`,
          label: `label${HOSTILE}`,
          probes: [{ probe: "version", result: "fail", ms: 1, reason: `exited with code 1: ${HOSTILE}` }],
          reason: `version: ${HOSTILE}`,
        },
        {
          ...chosen!,
          version: `0.171.0${HOSTILE}`,
          probes: [{ probe: `v${HOSTILE}`, result: "pass", ms: 1 }],
        },
        { ...skipped!, reason: `not needed${HOSTILE}` },
      ],
      loginShell: { type: "failed", shell: `/bin/${HOSTILE}`, reason: HOSTILE, ms: 3, cached: true },
      cacheFile: `/tmp/${HOSTILE}/probe-cache.json`,
    };
    const text = formatDoctorReport(hostile, { color: false });
    expect(text).not.toMatch(UNSAFE);
    expect(text).toContain(`chosen  codex 0.171.0${ESCAPED}  /h/${ESCAPED}/codex`);
    expect(text).toContain(`launch  "/h/${ESCAPED}/codex" app-server`);
    expect(text).toContain(`Login shell: /bin/${ESCAPED} failed after 3 ms: ${ESCAPED}`);
    expect(text).toContain(`Probe cache: /tmp/${ESCAPED}/probe-cache.json`);
    expect(text).toContain(`✘ 1. /opt/${ESCAPED}`);
    expect(text).toContain(`env-override (label${ESCAPED})`);
    expect(text).toContain(`version: exited with code 1: ${ESCAPED}`);
    expect(text).toContain(`version 0.171.0${ESCAPED}`);
    expect(text).toContain(`v${ESCAPED} ✔ 1 ms`);
    expect(text).toContain(`not probed: not needed${ESCAPED}`);

    const unavailable = formatDoctorReport(
      { ...hostile, available: false, chosen: null, reason: `none passed; best-ranked: ${HOSTILE}` },
      { color: false },
    );
    expect(unavailable).not.toMatch(UNSAFE);
    expect(unavailable).toContain(`reason  none passed; best-ranked: ${ESCAPED}`);
  });
});
