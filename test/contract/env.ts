/** The variables QA sets to run the contract suite against a running instance (docs/testing.md). */

/** True when the suite runs against the instance named by E2E_BASE_URL. */
export function runsRemote(): boolean {
  return (process.env.E2E_BASE_URL ?? '').trim() !== '';
}

/** A variable's value, trimmed; undefined when unset or blank. */
export function variable(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}
