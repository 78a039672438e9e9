import { defineError } from '../common/errors/error-catalogue';

/** The error of health (docs/api-contract.md, "Health"): its 503 is the report, with this. */

export const controlDatabaseDown = defineError({
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  name: 'CONTROL_DATABASE_DOWN',
  summary: 'The control database does not answer: the report with status unavailable',
  en: () => 'The control database does not answer',
  es: () => 'La base de datos de control no responde',
  headers: () => ({ 'Retry-After': '5' }),
  example: [],
});
