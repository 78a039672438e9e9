import { BadRequestError } from '../common/errors/domain-error';
import { example } from '../common/http/openapi-errors';
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
export const agrupacionRequiereCobros = () =>
  new BadRequestError(
    'agrupar=metodo needs the feature cobros, which is off for this tenant',
    'REPORTE_REQUIERE_COBROS',
    { agrupar: 'metodo', feature: 'cobros' },
  );

export const REPORTES_ERRORS = {
  REPORTE_REQUIERE_COBROS: example(
    400,
    'REPORTE_REQUIERE_COBROS',
    'agrupar=metodo while the feature cobros is off for the tenant',
    'agrupar=metodo needs the feature cobros, which is off for this tenant',
    { agrupar: 'metodo', feature: 'cobros' },
  ),
};
