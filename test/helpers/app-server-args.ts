/**
 * The arguments every `codex app-server` Rennet starts carries right after `app-server`, spelled out here so
 * that a test asserting a launch's argv fails when they change (src/codex/app-server/app-server-launch.ts).
 */
export const APP_SERVER_BASE_ARGS = ["-c", "features.skill_mcp_dependency_install=false"] as const;
