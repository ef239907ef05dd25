/** Every loopback model scenario, as the testkit's `modelScenarios` offers them. */
export * from "./model-scenarios.js";
export { escalatedCommand, messageThenCommand } from "./asking-scenarios.js";
