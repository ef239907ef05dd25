export type { CandidateSource, CodexLocus, LaunchMode } from "./discovery-types.js";
export {
  discoverCodex,
  DEFAULT_LOGIN_SHELL_TIMEOUT_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  type DiscoverOptions,
} from "./discover.js";
export type {
  CandidateReport,
  DiscoveryReport,
  LoginShellReport,
  ProbeName,
  ProbeOutcome,
} from "./discovery-report.js";
export { CodexUnavailableError, LaunchCwdError } from "./errors.js";
export { formatDoctorReport } from "./format-doctor-report.js";
