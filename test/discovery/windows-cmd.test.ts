import { describe, expect, it } from "vitest";
import {
  escapeCmdShimArgument,
  quoteMsvcrtArgument,
  windowsCmdLaunch,
} from "../../src/discovery/windows-cmd.js";
import { cmdExpandPercent, cmdUnescape, parseMsvcrt } from "../helpers/windows-cmd-line.js";

const NASTY = [
  "app-server",
  "-c",
  "mcp_servers={docs={enabled=false}}",
  'model="gpt 5"',
  "a&b|c>d",
  "100%PATH%",
  "trailing\\",
  'quote\\"d',
  "(x) ^ !y!",
  "",
];

/** Variables every cmd.exe has (`CD`, `CMDCMDLINE` are dynamic), for the percent expansion of its line. */
const CMD_ENV = {
  PATH: "C:\\Windows;C:\\Program Files (x86)\\Tools",
  CD: "C:\\repo",
  CMDCMDLINE: 'cmd.exe /d /s /c "x"',
};

const PERCENT = [
  "%PATH%",
  "%PATH:a=b%",
  "%Path:*\\=%",
  "%cd:~0,2%",
  "%CMDCMDLINE:x=y%",
  "50%",
  "%%",
  "%%cd:~,%",
];

describe("windowsCmdLaunch (pure argv)", () => {
  it("runs the shim through cmd.exe /d /e:on /v:off /s /c with one verbatim, fully escaped command line", () => {
    const launch = windowsCmdLaunch(
      "C:\\Users\\John Smith\\AppData\\Roaming\\npm\\codex.cmd",
      ["app-server"],
      "C:\\Windows\\system32\\cmd.exe",
    );
    expect(launch).toEqual({
      command: "C:\\Windows\\system32\\cmd.exe",
      args: [
        "/d",
        "/e:on",
        "/v:off",
        "/s",
        "/c",
        '"C:\\Users\\John^ Smith\\AppData\\Roaming\\npm\\codex.cmd ^^^"app-server^^^""',
      ],
      windowsVerbatimArguments: true,
    });
  });

  it("every argument survives cmd.exe's line, the shim's %* re-parse and the MSVCRT parser unchanged", () => {
    const launch = windowsCmdLaunch("C:\\npm\\codex.cmd", NASTY);
    const line = launch.args.at(-1) ?? "";
    expect(line.startsWith('"') && line.endsWith('"')).toBe(true);
    const afterCmd = cmdUnescape(cmdExpandPercent(line.slice(1, -1), CMD_ENV)); // /s strips the outer quotes; pass 1
    const shimArgs = afterCmd.slice(afterCmd.indexOf(" ") + 1); // %* = what follows the shim's path
    // no metacharacter is left unescaped for the shim's own parse
    expect(shimArgs.replace(/\^./g, "")).not.toMatch(/[&|<>()%!]/);
    expect(parseMsvcrt(cmdUnescape(shimArgs))).toEqual(NASTY);
  });

  it("a % in an argument or in the shim's path expands no variable: cmd.exe expands them before it reads ^", () => {
    const shim = "C:\\Users\\100%PATH:a=b%\\npm\\codex.cmd";
    const line = windowsCmdLaunch(shim, PERCENT).args.at(-1) ?? "";
    const afterCmd = cmdUnescape(cmdExpandPercent(line.slice(1, -1), CMD_ENV));
    const space = afterCmd.indexOf(" ");
    expect(afterCmd.slice(0, space)).toBe(shim);
    expect(parseMsvcrt(cmdUnescape(afterCmd.slice(space + 1)))).toEqual(PERCENT);
  });

  it("turns delayed expansion off: a registry DelayedExpansion would expand !name! after the ^ escapes were read", () => {
    const { args } = windowsCmdLaunch("C:\\npm\\codex.cmd", ["!PATH!"]);
    expect(args.indexOf("/v:off")).toBeGreaterThanOrEqual(0);
    expect(args.indexOf("/v:off")).toBeLessThan(args.indexOf("/c"));
  });

  it("refuses an argument with a line break, which would end cmd.exe's line and drop the arguments after it", () => {
    const args = [
      "app-server",
      "-c",
      'developer_instructions="""one\ntwo"""',
      "-c",
      "features.plugins=false",
    ];
    expect(() => windowsCmdLaunch("C:\\npm\\codex.cmd", args)).toThrow(
      expect.objectContaining({
        code: "LAUNCH_ARGUMENT_UNSAFE",
        message: expect.stringMatching(/^argument 3 /),
      }),
    );
    expect(() => windowsCmdLaunch("C:\\npm\\codex.cmd", ["a\rb"])).toThrow(/line break/);
  });

  it("refuses a command line longer than cmd.exe reads (8191 characters), which it would cut", () => {
    const header = `-c mcp_servers.s.http_headers.X="${"a".repeat(9000)}"`;
    const fits = windowsCmdLaunch("C:\\npm\\codex.cmd", ["app-server", "-c", "x=1"]);
    expect(fits.args.at(-1)?.length).toBeLessThan(8191);
    expect(() => windowsCmdLaunch("C:\\npm\\codex.cmd", ["app-server", header])).toThrow(
      expect.objectContaining({
        code: "LAUNCH_COMMAND_TOO_LONG",
        message: expect.stringMatching(
          /^the command line for C:\\npm\\codex\.cmd through cmd\.exe is \d+ characters/,
        ),
      }),
    );
    // the line as cmd.exe reads it, escapes included: 2,000 quotes take 5 characters each (\^^^")
    expect(() => windowsCmdLaunch("C:\\npm\\codex.cmd", ['"'.repeat(2000)])).toThrow(/8191/);
  });

  it("quotes for MSVCRT: backslashes before quotes and at the end are doubled", () => {
    expect(quoteMsvcrtArgument("plain")).toBe('"plain"');
    expect(quoteMsvcrtArgument('a"b')).toBe('"a\\"b"');
    expect(quoteMsvcrtArgument("dir\\")).toBe('"dir\\\\"');
    expect(quoteMsvcrtArgument('x\\"y')).toBe('"x\\\\\\"y"');
    expect(escapeCmdShimArgument("&")).toBe('^^^"^^^&^^^"');
  });
});
