import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MODULES } from '../../src/modules';
import type { ContractSweep } from '../common/openapi-sweep';

/**
 * A module's part of the OpenAPI sweep (test/common/openapi-contract.e2e-spec.ts): the calls
 * of its own routes, a success of each and its errors, checked against the document. It runs
 * with every feature on, for the tenant and the caller the sweep is made for (`s.call`).
 */
export type ModuleSweep = (s: ContractSweep) => Promise<void>;

const TEST = join(__dirname, '..');

/**
 * The sweeps of the modules of src/modules.ts that have one (`test/<module>/<module>.sweep.ts`
 * exporting `SWEEP`), in the list's order: a module's sweep can rely on what the earlier ones
 * left (a close paid by the money's sweep, the stock its purchase moved).
 */
export function moduleSweeps(): { module: string; sweep: ModuleSweep }[] {
  return MODULES.flatMap(({ name }) => {
    const file = join(TEST, name, `${name}.sweep.ts`);
    if (!existsSync(file)) return [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SWEEP } = require(file) as { SWEEP: ModuleSweep };
    return [{ module: name, sweep: SWEEP }];
  });
}
