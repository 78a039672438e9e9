import type { EntitySchema } from 'typeorm';

/**
 * Entities mapped on every tenant database. A module that maps tenant tables adds its
 * entity classes here, so that each cached tenant DataSource knows them.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const TENANT_ENTITIES: (Function | EntitySchema)[] = [];
