/** Injection token of the validated `AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');
/** Injection token of the `DatabaseTarget` (where the control database lives). */
export const DATABASE_TARGET = Symbol('DATABASE_TARGET');
/** Name of the TypeORM connection to the control database. */
export const CONTROL_CONNECTION = 'control';
