import { defineError } from '../common/errors/error-catalogue';
import { validationFailed } from '../common/validation';
import { MAX_DIAS } from './dto/reportes-input.dto';

/** The error codes of the reports (docs/reportes.md). */

/** desde after hasta: the shared 400 VALIDATION_FAILED, naming the field. */
export const rangoInvertido = (desde: string, hasta: string) =>
  validationFailed([`desde must not be after hasta (desde ${desde}, hasta ${hasta})`]);

/** A range longer than MAX_DIAS days: the shared 400 VALIDATION_FAILED, naming the field. */
export const rangoDemasiadoLargo = (days: number) =>
  validationFailed([
    `hasta must be at most ${MAX_DIAS - 1} days after desde (the range spans ${days} days, at most ${MAX_DIAS})`,
  ]);

/** agrupar=metodo reads the payments, which exist with the feature cobros only. */
export const agrupacionRequiereCobros = defineError({
  status: 400,
  code: 'REPORTE_REQUIERE_COBROS',
  summary: 'agrupar=metodo while the feature cobros is off for the tenant',
  en: () => 'agrupar=metodo needs the feature cobros, which is off for this tenant',
  es: () => 'agrupar=metodo necesita el módulo cobros, que está apagado para este restaurante',
  detail: () => ({ agrupar: 'metodo', feature: 'cobros' }),
  example: [],
});
