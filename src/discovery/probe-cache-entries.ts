import { isRecord } from "../json-record.js";
import type { LaunchMode } from "./discovery-types.js";
import type { ProbeOutcome } from "./discovery-report.js";

/** A candidate that passed every probe, as remembered. Failures are never cached. */
export interface CachedProbe {
  at: number;
  version: string;
  launch: LaunchMode;
  probes: ProbeOutcome[];
}

/**
 * A login shell's outcome, as remembered: its PATH, or (`failed` set) why it gave none, e.g. a timeout. A failure
 * is remembered for an hour at most (`FAILED_LOGIN_SHELL_TTL_MS`), so a slow shell costs its timeout once an hour
 * instead of every session.
 */
export interface CachedLoginShell {
  at: number;
  path: string;
  flags: string;
  ms: number;
  failed?: string;
}

const LAUNCH_MODES: readonly string[] = [
  "npm-native",
  "direct",
  "node-launcher",
  "windows-cmd",
] satisfies readonly LaunchMode[];
const PROBE_RESULTS: readonly string[] = ["pass", "fail", "skipped"] satisfies ProbeOutcome["result"][];

/**
 * Whether a value read from the cache file has exactly the shape {@link CachedProbe} is written with: those keys
 * and no others, each of its type. Anything else (null, a wrong type, an unknown key) is not an entry. Pure.
 */
export function isCachedProbe(value: unknown): value is CachedProbe {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ["at", "version", "launch", "probes"]) &&
    isTime(value.at) &&
    typeof value.version === "string" &&
    typeof value.launch === "string" &&
    LAUNCH_MODES.includes(value.launch) &&
    Array.isArray(value.probes) &&
    value.probes.every(isProbeOutcome)
  );
}

/** Whether a value read from the cache file has exactly the shape {@link CachedLoginShell} is written with. Pure. */
export function isCachedLoginShell(value: unknown): value is CachedLoginShell {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ["at", "path", "flags", "ms", "failed"]) &&
    isTime(value.at) &&
    typeof value.path === "string" &&
    typeof value.flags === "string" &&
    isTime(value.ms) &&
    (value.failed === undefined || typeof value.failed === "string")
  );
}

function isProbeOutcome(value: unknown): value is ProbeOutcome {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ["probe", "result", "ms", "reason"]) &&
    typeof value.probe === "string" &&
    typeof value.result === "string" &&
    PROBE_RESULTS.includes(value.result) &&
    isTime(value.ms) &&
    (value.reason === undefined || typeof value.reason === "string")
  );
}

/** A finite, non-negative number: a timestamp or a duration in milliseconds. */
function isTime(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}
