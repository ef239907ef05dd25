import { expect } from "vitest";

/**
 * What `start(options)` rejects with, or null when it started; a server it started goes to `started` (the test
 * closes it). For checking that a start refuses bad options up front.
 */
export function refusalOf<Server>(
  start: (options: never) => Promise<Server>,
  started: (server: Server) => void,
): (options: unknown) => Promise<unknown> {
  return (options) =>
    start(options as never).then(
      (server) => {
        started(server);
        return null;
      },
      (thrown: unknown) => thrown,
    );
}

/**
 * A loopback model server's start refuses a scenario that is not a function and a `maxBodyBytes` that is not a
 * positive integer, and its `setScenario` refuses a scenario that is not a function. Every server it starts goes
 * to `started`.
 */
export async function expectScenarioServerRefusals<Server extends { setScenario(scenario: never): void }>(
  start: (options?: never) => Promise<Server>,
  started: (server: Server) => void,
): Promise<void> {
  const refusal = refusalOf(start, started);
  for (const scenario of ["ok", { type: "text" }, null])
    expect(await refusal({ scenario })).toMatchObject({ code: "SCENARIO_INVALID" });
  for (const maxBodyBytes of [Number.NaN, -1, 0, 1.5, "1mb"])
    expect(await refusal({ maxBodyBytes })).toMatchObject({
      code: "TESTKIT_OPTIONS_INVALID",
      details: { option: "maxBodyBytes" },
    });
  const server = await start();
  started(server);
  expect(() => server.setScenario("ok" as never)).toThrow(
    expect.objectContaining({ code: "SCENARIO_INVALID" }),
  );
}
