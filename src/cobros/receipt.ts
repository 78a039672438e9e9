import type { ReporteCajaDto } from './dto/caja-output.dto';

/** The width of a receipt printer's line (80 mm paper, font A). */
export const RECEIPT_WIDTH = 42;

const SOLES = new Intl.NumberFormat('es-PE', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** An amount as the receipt prints it: 1,410.50 (a format, not a computation). */
const soles = (value: number): string => SOLES.format(value);

/** `2026-11-22T23:10:05-05:00` → `22/11/2026 23:10` (the instant is in the tenant's zone). */
function when(instant: string): string {
  const [date, time] = instant.split('T');
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y} ${time.slice(0, 5)}`;
}

function cut(text: string, width: number): string {
  return text.length > width ? text.slice(0, width) : text;
}

/** A label on the left and a value on the right of one line (the label is cut to fit). */
function row(label: string, value: string): string {
  const room = RECEIPT_WIDTH - value.length - 1;
  return `${cut(label, room).padEnd(room)} ${value}`;
}

function center(text: string): string {
  const t = cut(text, RECEIPT_WIDTH);
  return t.padStart(Math.floor((RECEIPT_WIDTH + t.length) / 2)).padEnd(RECEIPT_WIDTH);
}

const RULE = '-'.repeat(RECEIPT_WIDTH);
const DOUBLE = '='.repeat(RECEIPT_WIDTH);

/**
 * The X or the Z of a till session laid out for a 42-column receipt printer: plain text, one
 * line per row, no line longer than 42 characters, amounts right-aligned.
 */
export function receiptText(report: ReporteCajaDto): string {
  const { sesion, totales } = report;
  const lines: string[] = [DOUBLE, center(`${sesion.caja} - REPORTE ${report.tipo}`)];
  if (sesion.numero_z !== null) lines.push(center(`Z N° ${sesion.numero_z}`));
  else lines.push(center('(parcial: la sesión sigue abierta)'));
  lines.push(RULE);
  lines.push(row(`Apertura ${when(sesion.fec_apertura)}`, sesion.abierta_por ?? ''));
  if (sesion.fec_cierre)
    lines.push(row(`Cierre   ${when(sesion.fec_cierre)}`, sesion.cerrada_por ?? ''));
  lines.push(row(`Emitido  ${when(report.fec_reporte)}`, ''));
  lines.push(RULE, 'VENTAS POR MÉTODO');
  for (const m of report.metodos) {
    if (m.pagos === 0 && m.reembolsos === 0 && !m.cuenta_en_caja) continue;
    lines.push(row(`${m.nombre} (${m.pagos})`, soles(m.ventas)));
    if (m.propinas !== 0) lines.push(row('  Propinas', soles(m.propinas)));
    if (m.reembolsos !== 0) lines.push(row('  Reembolsos', `-${soles(m.reembolsos)}`));
  }
  lines.push(
    RULE,
    row('TOTAL VENTAS', soles(totales.ventas)),
    row('TOTAL PROPINAS', soles(totales.propinas)),
  );
  if (totales.reembolsos !== 0) lines.push(row('TOTAL REEMBOLSOS', soles(totales.reembolsos)));
  lines.push(
    row('Comandas cobradas', String(totales.comandas)),
    row('Pagos', String(totales.pagos)),
  );
  for (const m of report.metodos.filter((x) => x.cuenta_en_caja)) {
    lines.push(RULE, `${m.nombre.toUpperCase()} EN CAJA`);
    lines.push(row('Apertura', soles(m.apertura)));
    lines.push(row('+ Ventas', soles(m.ventas)), row('+ Propinas', soles(m.propinas)));
    lines.push(row('+ Ingresos', soles(m.ingresos)), row('- Retiros', soles(m.retiros)));
    lines.push(row('- Reembolsos', soles(m.reembolsos)), row('= Esperado', soles(m.esperado)));
    if (m.contado !== null) {
      lines.push(row('Contado', soles(m.contado)), row('Diferencia', soles(m.diferencia ?? 0)));
    }
  }
  // the other methods counted at the close, but those nobody used that day
  const others = report.metodos.filter(
    (m) =>
      !m.cuenta_en_caja &&
      m.contado !== null &&
      !(m.pagos === 0 && m.reembolsos === 0 && m.contado === 0),
  );
  if (others.length > 0) {
    lines.push(RULE, 'ARQUEO OTROS MÉTODOS');
    for (const m of others) {
      lines.push(m.nombre);
      lines.push(row('  Esperado', soles(m.esperado)), row('  Contado', soles(m.contado!)));
      lines.push(row('  Diferencia', soles(m.diferencia ?? 0)));
    }
  }
  if (report.movimientos.length > 0) {
    lines.push(RULE, 'MOVIMIENTOS');
    for (const mv of report.movimientos) {
      const sign = mv.tipo === 'retiro' ? '-' : '+';
      lines.push(
        row(`${mv.fec_movimiento.slice(11, 16)} ${mv.motivo}`, `${sign}${soles(mv.monto)}`),
      );
    }
  }
  if (sesion.nota) lines.push(RULE, ...wrap(`Nota: ${sesion.nota}`));
  lines.push(DOUBLE);
  return `${lines.map((l) => l.trimEnd()).join('\n')}\n`;
}

/** Words on lines of at most 42 characters (a longer word is cut). */
function wrap(text: string): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= RECEIPT_WIDTH) line = next;
    else {
      if (line) out.push(line);
      line = cut(word, RECEIPT_WIDTH);
    }
  }
  if (line) out.push(line);
  return out;
}
