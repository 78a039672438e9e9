/**
 * The rules of the Inventario screen, without DOM (unit tested in inventario-rules.spec.ts): how
 * a movement's tipo, a count's state and a unidad read in Spanish; quantities, unit costs and
 * percentages in es-PE; which balances a filter keeps; the stock's total value (summed in whole
 * ten-thousandths of a sol, never in floating point); the quantities people type and the count
 * sheet's body built from them; the consumption report's periods; the service's refusals in
 * Spanish. Every figure shown is the API's: the page computes no difference, cost or value.
 */
import { ApiError, type Schemas } from '../api';
import { addDays } from '../dates';
import { when } from '../format';
import type { Centimos } from '../money';

export type Saldo = Schemas['SaldoDto'];
export type Material = Schemas['MaterialDto'];
export type Movimiento = Schemas['MovimientoStockDto'];
export type ConteoResumen = Schemas['ConteoResumenDto'];
export type Conteo = Schemas['ConteoDto'];
export type ConteoLinea = Schemas['ConteoLineaDto'];
export type ConteoBody = Schemas['ConteoBody'];
export type ConteoPatchBody = Schemas['ConteoPatchBody'];
export type Consumo = Schemas['ConsumoDto'];
export type ConsumoMaterial = Schemas['ConsumoMaterialDto'];
export type Tipo = Movimiento['tipo'];
export type Unidad = Saldo['unidad'];
export type EstadoConteo = Conteo['estado'];
export type AccionConteo = Conteo['acciones'][number];

/** A movement's tipo in words, in the order the filter offers them. */
export const TIPOS: readonly { tipo: Tipo; label: string; hint: string }[] = [
  { tipo: 'compra', label: 'Compra', hint: 'una línea de una compra' },
  {
    tipo: 'reverso_compra',
    label: 'Reverso de compra',
    hint: 'una línea de compra corregida o la compra eliminada',
  },
  { tipo: 'consumo_venta', label: 'Consumo de venta', hint: 'la receta de un plato vendido' },
  {
    tipo: 'reverso_consumo',
    label: 'Reverso de consumo',
    hint: 'una comanda reabierta o anulada: su consumo vuelve',
  },
  { tipo: 'merma', label: 'Merma', hint: 'lo que se perdió, con su motivo' },
  { tipo: 'ajuste_conteo', label: 'Ajuste de conteo', hint: 'contado menos sistema al corte' },
  { tipo: 'inicial', label: 'Saldo inicial', hint: 'el saldo con que empezó el libro' },
];

export function tipoLabel(tipo: Tipo): string {
  return TIPOS.find((t) => t.tipo === tipo)?.label ?? tipo;
}

export function tipoHint(tipo: Tipo): string {
  return TIPOS.find((t) => t.tipo === tipo)?.hint ?? '';
}

export const ESTADOS_CONTEO: readonly { estado: EstadoConteo; label: string; plural: string }[] = [
  { estado: 'borrador', label: 'Borrador', plural: 'Borradores' },
  { estado: 'aplicado', label: 'Aplicado', plural: 'Aplicados' },
  { estado: 'descartado', label: 'Descartado', plural: 'Descartados' },
];

export function estadoConteoLabel(estado: EstadoConteo): string {
  return ESTADOS_CONTEO.find((e) => e.estado === estado)?.label ?? estado;
}

const UNIDADES: Record<Unidad, string> = { kg: 'kg', g: 'g', l: 'l', ml: 'ml', unidad: 'und.' };

/** `kg`, `und.`: a unidad as written after a quantity. */
export function unidadLabel(unidad: Unidad): string {
  return UNIDADES[unidad] ?? unidad;
}

const QUANTITY = new Intl.NumberFormat('es-PE', { maximumFractionDigits: 4 });
const SIGNED = new Intl.NumberFormat('es-PE', {
  maximumFractionDigits: 4,
  signDisplay: 'exceptZero',
});

/** `1,234.5 kg`, `12 und.`: a quantity the API sent (up to 4 decimals), with its unidad. */
export function cantidadLabel(value: number, unidad?: Unidad): string {
  const text = QUANTITY.format(value);
  return unidad ? `${text} ${unidadLabel(unidad)}` : text;
}

/** `+0.5 kg`, `-0.35 kg`, `0 kg`: a signed quantity (a movement, a difference). */
export function cantidadSigned(value: number, unidad?: Unidad): string {
  const text = SIGNED.format(value);
  return unidad ? `${text} ${unidadLabel(unidad)}` : text;
}

const COSTO = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const COSTO_FINO = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/**
 * A cost per unidad (the API keeps 6 decimals): `S/ 32.08`, and below one sol up to four
 * decimals, since a price per gram needs them (`S/ 0.0321`).
 */
export function costoUnitario(value: number): string {
  const small = value > -1 && value < 1;
  return `S/ ${(small ? COSTO_FINO : COSTO).format(value)}`;
}

const PERCENT = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** `30.95 %`, or `—` when the API has none (no sales in the period). */
export function porcentaje(value: number | null): string {
  return value === null ? '—' : `${PERCENT.format(value)} %`;
}

/** A balance to watch: below zero or below its minimum. */
export function enAlerta(s: Pick<Saldo, 'negativo' | 'bajo_minimo'>): boolean {
  return s.negativo || s.bajo_minimo;
}

/** Lower case, without accents: `Limón` and `limon` are the same search. */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** The materials whose name contains `texto` (any case, any accent), only alerts if asked. */
export function filtrarSaldos<T extends Pick<Saldo, 'nombre' | 'negativo' | 'bajo_minimo'>>(
  saldos: readonly T[],
  texto: string,
  soloAlertas: boolean,
): T[] {
  const wanted = normalize(texto);
  return saldos.filter(
    (s) => (!soloAlertas || enAlerta(s)) && (wanted === '' || normalize(s.nombre).includes(wanted)),
  );
}

/** A value the API sent with at most 4 decimals, as whole ten-thousandths of a sol (its text). */
function diezmilesimos(value: number): number {
  const text = value.toFixed(4);
  const negative = text.startsWith('-');
  const [whole, decimals] = (negative ? text.slice(1) : text).split('.');
  const magnitude = Number.parseInt(`${whole}${decimals}`, 10);
  return negative ? -magnitude : magnitude;
}

/**
 * The value of the stock: the sum of the balances' `valor` (4 decimals each), added in whole
 * ten-thousandths and rounded once to céntimos (half away from zero), as the book would.
 */
export function valorTotal(saldos: readonly Pick<Saldo, 'valor'>[]): Centimos {
  const sum = saldos.reduce((acc, s) => acc + diezmilesimos(s.valor), 0);
  const magnitude = Math.abs(sum);
  const centimos = (magnitude - (magnitude % 100)) / 100 + (magnitude % 100 >= 50 ? 1 : 0);
  return sum < 0 ? -centimos : centimos;
}

/**
 * A quantity typed by people (what was counted, what was lost): `4.25`, `4,25`, `12`, `.5`; at
 * most 4 decimals, never negative. Null for anything else (empty included). Read from its text.
 */
export function parseCantidad(text: string): number | null {
  const m = /^(\d*)(?:[.,](\d{1,4}))?$/.exec(text.trim());
  if (!m || (m[1] === '' && m[2] === undefined)) return null;
  return Number(`${m[1] === '' ? '0' : m[1]}.${m[2] ?? '0'}`);
}

/** The text of a quantity the API sent, for an input (`4.25`, no grouping). */
export function cantidadInput(value: number): string {
  return String(value);
}

/** A sheet's line as far as the form is concerned: which material, how much was counted. */
type LineaContada = Pick<ConteoLinea, 'id_mat_prima' | 'contado'>;

/** What was typed on the count form: the text of each material's count, by id. */
export type Contados = Record<number, string>;

/**
 * The lines of a new count sheet: every material with a count typed (a blank one was not
 * counted), or the errors by material when a count is not a quantity. No line at all is an
 * error of the sheet (`0`).
 */
export function conteoLineas(contados: Contados): {
  lineas: ConteoBody['lineas'];
  errors: Record<number, string>;
} {
  const lineas: ConteoBody['lineas'] = [];
  const errors: Record<number, string> = {};
  for (const [id, text] of Object.entries(contados)) {
    if (text.trim() === '') continue;
    const contado = parseCantidad(text);
    if (contado === null) errors[Number(id)] = 'Cantidad no válida (hasta 4 decimales)';
    else lineas.push({ id_mat_prima: Number(id), contado });
  }
  if (lineas.length === 0 && Object.keys(errors).length === 0)
    errors[0] = 'Anote lo contado de al menos un material';
  return { lineas, errors };
}

/** The counts of a draft, as the form's text: what the edit starts from. */
export function contadosOf(conteo: { lineas: readonly LineaContada[] }): Contados {
  return Object.fromEntries(conteo.lineas.map((l) => [l.id_mat_prima, cantidadInput(l.contado)]));
}

/**
 * The PATCH of a draft from the form: the lines whose count changed (set), the ones emptied
 * (`contado: null`, off the sheet), and the note when it changed; null when nothing changed.
 */
export function conteoPatch(
  conteo: { lineas: readonly LineaContada[]; observacion: string | null },
  contados: Contados,
  observacion: string,
): { body: ConteoPatchBody | null; errors: Record<number, string> } {
  const before = new Map(conteo.lineas.map((l) => [l.id_mat_prima, l.contado]));
  const lineas: NonNullable<ConteoPatchBody['lineas']> = [];
  const errors: Record<number, string> = {};
  let remaining = 0;
  for (const [key, text] of Object.entries(contados)) {
    const id = Number(key);
    const was = before.get(id);
    if (text.trim() === '') {
      if (was !== undefined) lineas.push({ id_mat_prima: id, contado: null });
      continue;
    }
    const contado = parseCantidad(text);
    if (contado === null) {
      errors[id] = 'Cantidad no válida (hasta 4 decimales)';
      continue;
    }
    remaining += 1;
    if (was !== contado) lineas.push({ id_mat_prima: id, contado });
  }
  for (const id of before.keys()) if (!(id in contados)) remaining += 1;
  if (Object.keys(errors).length > 0) return { body: null, errors };
  if (remaining === 0)
    return { body: null, errors: { 0: 'Un conteo necesita al menos un material' } };
  const note = observacion.trim();
  const noteChanged = note !== (conteo.observacion ?? '');
  if (lineas.length === 0 && !noteChanged) return { body: null, errors };
  return {
    body: {
      ...(lineas.length > 0 ? { lineas } : {}),
      ...(noteChanged ? { observacion: note === '' ? null : note } : {}),
    },
    errors,
  };
}

/** The consumption report's periods: since the last count (the API's default), this month, the last. */
export type Preset = 'ultimo_conteo' | 'este_mes' | 'mes_pasado' | 'otro';

export const PRESETS: readonly { preset: Preset; label: string }[] = [
  { preset: 'ultimo_conteo', label: 'Desde el último conteo' },
  { preset: 'este_mes', label: 'Este mes' },
  { preset: 'mes_pasado', label: 'Mes pasado' },
  { preset: 'otro', label: 'Otras fechas' },
];

/**
 * The query of GET /inventario/consumo for a preset, `today` the tenant's date (YYYY-MM-DD). A
 * date as `desde` counts from its start, as `hasta` to its end. Since the last count sends
 * nothing: the API takes the last applied count's cut-off (or 30 days) up to now.
 */
export function periodoQuery(
  preset: Preset,
  today: string,
  otro: { desde: string; hasta: string } = { desde: '', hasta: '' },
): { desde?: string; hasta?: string } {
  const firstOfMonth = `${today.slice(0, 7)}-01`;
  switch (preset) {
    case 'ultimo_conteo':
      return {};
    case 'este_mes':
      return { desde: firstOfMonth, hasta: today };
    case 'mes_pasado': {
      const lastOfPrevious = addDays(firstOfMonth, -1);
      return { desde: `${lastOfPrevious.slice(0, 7)}-01`, hasta: lastOfPrevious };
    }
    case 'otro':
      return {
        ...(otro.desde ? { desde: otro.desde } : {}),
        ...(otro.hasta ? { hasta: otro.hasta } : {}),
      };
  }
}

/** `01/11/26`: a date (YYYY-MM-DD) as the page writes it. */
function fecha(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y.slice(-2)}`;
}

const MIDNIGHT = /T00:00(?::00(?:\.0+)?)?(?:Z|[+-]\d\d:?\d\d)?$/;

/**
 * The period a report covers, as the API answered it (instants with the tenant's offset, after
 * `desde` up to `hasta`): whole days when both are midnights (`Del 01/11/26 al 25/11/26`: the
 * day `hasta` starts is not in it), otherwise the instants (`Del 24/11/26 23:30 al 25/11/26 14:05`).
 */
export function periodoLabel(desde: string, hasta: string): string {
  if (MIDNIGHT.test(desde) && MIDNIGHT.test(hasta)) {
    const first = desde.slice(0, 10);
    const last = addDays(hasta.slice(0, 10), -1);
    return first >= last ? `El ${fecha(first)}` : `Del ${fecha(first)} al ${fecha(last)}`;
  }
  return `Del ${when(desde)} al ${when(hasta)}`;
}

/** What a movement belongs to, when the page can name it: `compra N° 12`, `conteo N° 3`. */
export function documentoLabel(m: Pick<Movimiento, 'origen' | 'id_documento'>): string | null {
  if (m.id_documento === null) return null;
  if (m.origen === 'compra') return `compra N° ${m.id_documento}`;
  if (m.origen === 'conteo') return `conteo N° ${m.id_documento}`;
  return null;
}

/** `dd/mm/yy hh:mm` of an instant in the tenant's zone (an error's detail is in UTC). */
export function instanteLocal(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const format = (zone?: string) => {
    const parts = new Intl.DateTimeFormat('es-PE', {
      timeZone: zone,
      day: '2-digit',
      month: '2-digit',
      year: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(date);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
  };
  try {
    return format(timeZone);
  } catch {
    return format(undefined);
  }
}

/**
 * A refusal of the stock's routes in Spanish, with its code, as people read it: the closed
 * period with its date, a count no longer a draft, a cut-off in the future. Any other error
 * keeps the service's message.
 */
export function mensajeError(error: unknown, timeZone: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const detail = (error.detail ?? {}) as Record<string, unknown>;
  switch (error.code) {
    case 'PERIODO_CERRADO': {
      const hasta =
        typeof detail.cerrado_hasta === 'string'
          ? ` hasta el ${instanteLocal(detail.cerrado_hasta, timeZone)}`
          : '';
      return `El inventario está cerrado${hasta} por el último conteo aplicado: no se puede registrar nada con fecha anterior (${error.code})`;
    }
    case 'CONTEO_NO_BORRADOR':
      return `Este conteo ya no es un borrador (alguien lo aplicó o lo descartó): no se puede cambiar (${error.code})`;
    case 'CORTE_FUTURO':
      return `La fecha de corte no puede estar en el futuro (${error.code})`;
    case 'MATERIA_REPETIDA':
      return `Un material figura dos veces en el conteo (${error.code})`;
    case 'MATERIA_NOT_FOUND':
      return `El material ya no existe: vuelva a cargar la pantalla (${error.code})`;
    case 'CONTEO_NOT_FOUND':
      return `Ese conteo no existe (${error.code})`;
    default:
      return error;
  }
}
