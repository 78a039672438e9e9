import { defineError } from '../common/errors/error-catalogue';

/** The error codes of the stock ledger, its waste and its counts (docs/inventario.md). */

export const materiaNotFound = defineError({
  status: 400,
  code: 'MATERIA_NOT_FOUND',
  summary: 'No material has this id',
  en: (id: number) => `Material ${id} does not exist`,
  es: (id) => `La materia prima ${id} no existe`,
  detail: (id) => ({ id_mat_prima: id }),
  example: [99],
});

export const materiasNotFound = defineError({
  status: 400,
  code: 'MATERIA_NOT_FOUND',
  name: 'MATERIAS_NOT_FOUND',
  summary: 'Materials listed do not exist',
  en: (ids: number[]) => `Materials ${ids.join(', ')} do not exist`,
  es: (ids) =>
    ids.length === 1
      ? `La materia prima ${ids[0]} no existe`
      : `Las materias primas ${ids.join(', ')} no existen`,
  detail: (ids) => ({ id_mat_prima: ids }),
  example: [[98, 99]],
});

export const materiaRepetida = defineError({
  status: 400,
  code: 'MATERIA_REPETIDA',
  summary: 'A material is twice on the count sheet',
  en: (ids: number[]) => `A material appears more than once on the sheet: ${ids.join(', ')}`,
  es: (ids) => `Una materia prima aparece más de una vez en la hoja: ${ids.join(', ')}`,
  detail: (ids) => ({ id_mat_prima: ids }),
  example: [[3]],
});

export const productoNotFound = defineError({
  status: 404,
  code: 'PRODUCTO_NOT_FOUND',
  summary: 'No product has this id',
  en: (id: number) => `Producto ${id} does not exist`,
  es: (id) => `El producto ${id} no existe`,
  detail: (id) => ({ id_producto: id }),
  example: [999],
});

export const conteoNotFound = defineError({
  status: 404,
  code: 'CONTEO_NOT_FOUND',
  summary: 'No count has this id',
  en: (id: number) => `Conteo ${id} does not exist`,
  es: (id) => `El conteo ${id} no existe`,
  detail: (id) => ({ id_conteo: id }),
  example: [99],
});

export const conteoNoEditable = defineError({
  status: 409,
  code: 'CONTEO_NO_BORRADOR',
  summary: 'The count was applied or discarded already',
  en: (id: number, estado: string) => `Conteo ${id} is ${estado}: only a draft changes`,
  es: (id, estado) => `El conteo ${id} está ${estado}: solo cambia un borrador`,
  detail: (id, estado) => ({ id_conteo: id, estado }),
  example: [7, 'aplicado'],
});

export const corteFuturo = defineError({
  status: 400,
  code: 'CORTE_FUTURO',
  summary: 'The cut-off is in the future',
  en: () => 'fec_corte must not be in the future',
  es: () => 'fec_corte no puede estar en el futuro',
  example: [],
});

/** `cerradoHasta`: the cut-off as PostgreSQL wrote it (UTC ISO text), or an instant. */
export const periodoCerrado = defineError({
  status: 409,
  code: 'PERIODO_CERRADO',
  summary: 'Dated at or before the last applied count’s cut-off',
  en: (_cerradoHasta: string | Date | null) =>
    'The stock period is closed up to the last applied count’s cut-off: nothing may be posted there',
  es: () =>
    'El inventario está cerrado hasta el corte del último conteo aplicado: no se puede registrar nada con fecha anterior',
  detail: (cerradoHasta) => ({
    cerrado_hasta:
      cerradoHasta instanceof Date ? cerradoHasta.toISOString() : (cerradoHasta ?? null),
  }),
  example: ['2026-11-01T05:00:00.000000Z'],
});
