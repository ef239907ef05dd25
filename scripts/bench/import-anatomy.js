#!/usr/bin/env node
// Where the time of `import("rennet-adapters")` goes, as whole fresh processes over `node -e 0`: an empty ES
// module, N trivial modules side by side and in a chain (what the loader costs per module, whatever is in it),
// the package entry imported and required (what the module-sync entry does), and the entry without one harness's
// exports (what each client's synchronous surface costs).
// Every variant is run once per round, in turn, and the medians are printed with the static module count.
// usage: npm run build && node scripts/bench/import-anatomy.js [--rounds N]   (default 25)
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { quantile } from "./stats.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ENTRY = path.join(ROOT, "dist", "index.js");
/** What `import("rennet-adapters")` resolves to where Node can require ES modules: it requires ENTRY. */
const SYNC_ENTRY = path.join(ROOT, "dist", "sync-entry.js");
const TRIVIAL_MODULES = 80;
const roundsAt = process.argv.indexOf("--rounds");
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 25;
if (!Number.isInteger(rounds) || rounds < 3) throw new Error("--rounds takes a whole number of at least 3");

/** The relative and `file:` static imports and re-exports of an ES module's text (`tsc` writes one per statement). */
function staticImports(text) {
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+|file:[^"]+)"/gms)].map(
    (match) => match[1],
  );
}

/** How many modules a static import of `file` loads (itself included; builtins and packages not counted). */
async function moduleCount(file, seen = new Set()) {
  if (seen.has(file)) return seen.size;
  seen.add(file);
  const text = await readFile(file, "utf8");
  for (const specifier of staticImports(text)) {
    const target = specifier.startsWith("file:")
      ? fileURLToPath(specifier)
      : path.resolve(path.dirname(file), specifier);
    await moduleCount(target, seen);
  }
  return seen.size;
}

/** Writes the synthetic graphs and the entry variants into `dir`; returns the variants to time. */
async function writeVariants(dir) {
  await writeFile(path.join(dir, "package.json"), '{"type":"module"}\n');
  await writeFile(path.join(dir, "empty.js"), "export const empty = true;\n");
  for (let index = 1; index <= TRIVIAL_MODULES; index++) {
    await writeFile(path.join(dir, `leaf${index}.js`), `export const value${index} = ${index};\n`);
    const next = index < TRIVIAL_MODULES ? `export * from "./chain${index + 1}.js";\n` : "";
    await writeFile(path.join(dir, `chain${index}.js`), `${next}export const link${index} = ${index};\n`);
  }
  const flat = Array.from(
    { length: TRIVIAL_MODULES },
    (_, index) => `export * from "./leaf${index + 1}.js";`,
  );
  await writeFile(path.join(dir, "flat.js"), `${flat.join("\n")}\n`);
  const entryLines = (await readFile(ENTRY, "utf8")).split("\n");
  const entryDir = pathToFileURL(path.dirname(ENTRY)).href;
  // the entry's own lines with its relative specifiers made absolute, without the exports `drop` matches
  const entryWithout = async (name, drop) => {
    const lines = entryLines
      .filter((line) => !drop.test(line))
      .map((line) => line.replace(/from "\.\/([^"]+)"/, (_, rest) => `from "${entryDir}/${rest}"`));
    await writeFile(path.join(dir, `${name}.js`), `${lines.join("\n")}\n`);
  };
  await entryWithout("entry-without-claude", /\/claude\//);
  await entryWithout("entry-without-codex-clients", /codex\/client\/(codex-client|conversation)\.js/);
  const at = (name) => path.join(dir, name);
  const variants = [
    { label: "empty ES module", file: at("empty.js") },
    { label: `${TRIVIAL_MODULES} trivial modules, side by side`, file: at("flat.js") },
    { label: `${TRIVIAL_MODULES} trivial modules, in a chain`, file: at("chain1.js") },
    { label: "the package entry (dist/index.js)", file: ENTRY },
    { label: "the same, required by dist/sync-entry.js", file: SYNC_ENTRY, requires: ENTRY },
    { label: "the entry without Claude Code's exports", file: at("entry-without-claude.js") },
    { label: "the entry without the Codex clients", file: at("entry-without-codex-clients.js") },
  ];
  for (const variant of variants) {
    variant.modules = await moduleCount(variant.file);
    if (variant.requires) variant.modules += await moduleCount(variant.requires);
  }
  return variants;
}

function wallMs(args) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${result.status}`);
  return performance.now() - start;
}

const dir = await mkdtemp(path.join(tmpdir(), "rennet-import-anatomy-"));
try {
  const variants = await writeVariants(dir);
  const bare = [];
  const samples = variants.map(() => []);
  for (let round = 0; round < rounds; round++) {
    bare.push(wallMs(["-e", "0"]));
    variants.forEach((variant, index) =>
      samples[index].push(
        wallMs([
          "--input-type=module",
          "-e",
          `await import(${JSON.stringify(pathToFileURL(variant.file).href)})`,
        ]),
      ),
    );
  }
  const bareMs = quantile(bare, 0.5);
  console.log(
    `node ${process.version}, ${rounds} rounds; median wall time of a fresh process over node -e 0 (${bareMs.toFixed(1)} ms)`,
  );
  variants.forEach((variant, index) => {
    const modules = variant.modules;
    const delta = quantile(samples[index], 0.5) - bareMs;
    console.log(
      `${variant.label.padEnd(42)} ${String(modules).padStart(4)} ${`+${delta.toFixed(1)} ms`.padStart(11)}`,
    );
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
