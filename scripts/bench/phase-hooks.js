// Preloaded with `node --import` into a profiled rennet process (scripts/bench/profile-turn.js): records when
// things happen (performance.now(), ms since the process started) and writes the timeline as JSON to the file
// named by RENNET_BENCH_TIMELINE on exit. It wraps child_process.spawn (each spawn, its 'spawn' event, its
// first stdout byte, the end of its stdin, a kill, its exit), process.stdout.write (first write, the terminal
// event) and counts the file system calls by phase (load, pre-spawn, turn, teardown) and by place (/proc, the
// state directory, …).
import childProcess from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";

const file = process.env.RENNET_BENCH_TIMELINE;
const marks = [];
const fsCalls = {};
const stateDir = process.env.RENNET_STATE_DIR;
let phase = "load";
export function mark(name, detail) {
  marks.push({ name, at: performance.now(), ...(detail === undefined ? {} : { detail }) });
  if (name === "import end") phase = "pre-spawn";
  if (name === "spawn" && String(detail).endsWith("app-server")) phase = "turn";
  if (name === "terminal written") phase = "teardown";
}
globalThis.__rennetBenchMark = mark;
mark("preload");

const spawn = childProcess.spawn;
childProcess.spawn = function (command, args, options) {
  const what = [String(command).split("/").pop(), ...(Array.isArray(args) ? args.slice(0, 1) : [])].join(" ");
  mark("spawn", what);
  const child = spawn.call(this, command, args, options);
  child.once("spawn", () => mark("spawned", what));
  child.stdout?.once("data", () => mark("child first stdout", what));
  child.once("exit", () => mark("child exit", what));
  const stdin = child.stdin;
  if (stdin) {
    const writeToChild = stdin.write;
    stdin.write = function (...args) {
      stdin.write = writeToChild;
      mark("child first stdin", what);
      return writeToChild.apply(this, args);
    };
    // the teardown: when the client closes the child's stdin (and, below, when it signals it)
    const end = stdin.end;
    stdin.end = function (...args) {
      mark("child stdin end", what);
      return end.apply(this, args);
    };
  }
  const kill = child.kill;
  child.kill = function (...args) {
    mark("child kill", `${what} ${args[0] ?? "SIGTERM"}`);
    return kill.apply(this, args);
  };
  return child;
};

function counted(target, name, kind) {
  const original = target[name];
  target[name] = function (path, ...rest) {
    const text = String(path);
    const where = text.startsWith("/proc")
      ? "/proc"
      : stateDir && text.startsWith(stateDir)
        ? "state dir"
        : text.includes("node_modules")
          ? "node_modules"
          : text.includes("/dist/")
            ? "dist"
            : "other";
    const key = `${phase}: ${kind} ${where}`;
    fsCalls[key] = (fsCalls[key] ?? 0) + 1;
    return original.call(this, path, ...rest);
  };
}
for (const name of ["readFile", "readdir", "stat", "lstat", "open", "readlink", "writeFile", "mkdir"]) {
  counted(fs.promises, name, name);
  counted(fs, `${name}Sync`, `${name}Sync`);
}
syncBuiltinESMExports();

const write = process.stdout.write;
let firstWrite = true;
process.stdout.write = function (chunk, ...rest) {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  if (firstWrite) mark("first stdout write");
  firstWrite = false;
  if (text.includes('"type":"terminal"')) mark("terminal written");
  return write.call(this, chunk, ...rest);
};

process.on("exit", () => {
  mark("process exit");
  if (file) fs.writeFileSync(file, JSON.stringify({ marks, fsCalls }));
});
