import { hora, plural, soles, when } from '../format';
import { centimosOf, formatCentimos, total } from '../money';
import { denominacionLabel, metodosShown, type Reporte, type ReporteMetodo } from './caja-rules';

/** The X or the Z on screen: figures per method, the cash in the till, the movements. */
export function ReportView({
  reporte,
  onMovement,
  onClose,
}: {
  reporte: Reporte;
  onMovement: () => void;
  onClose: () => void;
}) {
  const { sesion, totales } = reporte;
  const z = reporte.tipo === 'Z';
  const metodos = metodosShown(reporte);
  const reembolsos = metodos.some((m) => m.reembolsos !== 0);
  const efectivo = reporte.metodos.filter((m) => m.cuenta_en_caja);
  const title = z
    ? `Reporte Z N° ${sesion.numero_z ?? ''} · ${sesion.caja}`
    : `Reporte X · ${sesion.caja}`;
  const columns = 4 + (reembolsos ? 1 : 0) + (z ? 2 : 0);
  return (
    <section class="panel reporte" aria-label={title}>
      <header class="reporte-head">
        <h2>
          {title}{' '}
          <span class={z ? 'pill cerrada' : 'pill abierta'}>{z ? 'cerrada' : 'abierta'}</span>
        </h2>
        <p class="meta">
          Abierta {when(sesion.fec_apertura)}
          {sesion.abierta_por && ` por ${sesion.abierta_por}`} · fondo{' '}
          {soles(sesion.monto_apertura)}
        </p>
        <p class="meta">
          {z
            ? `Cerrada ${when(sesion.fec_cierre)}${sesion.cerrada_por ? ` por ${sesion.cerrada_por}` : ''}`
            : `Parcial, leído a las ${hora(reporte.fec_reporte)}: la sesión sigue abierta`}
        </p>
      </header>
      {sesion.acciones.length > 0 && (
        <div class="actions">
          {sesion.acciones.includes('registrar_movimiento') && (
            <button type="button" class="secondary" onClick={onMovement}>
              Ingreso o retiro
            </button>
          )}
          {sesion.acciones.includes('cerrar') && (
            <button type="button" onClick={onClose}>
              Cerrar caja
            </button>
          )}
        </div>
      )}

      <p class="figures reporte-figures">
        <span>
          <strong>{soles(totales.ventas)}</strong> ventas
        </span>
        <span>
          <strong>{soles(totales.propinas)}</strong> propinas
        </span>
        <span>
          <strong>{plural(totales.comandas, 'comanda cobrada', 'comandas cobradas')}</strong>
        </span>
        <span>
          <strong>{plural(totales.pagos, 'pago', 'pagos')}</strong>
        </span>
      </p>

      <table class="table figuras" aria-label="Por método de pago">
        <thead>
          <tr>
            <th>Método</th>
            <th class="num">Pagos</th>
            <th class="num">Ventas</th>
            <th class="num">Propinas</th>
            {reembolsos && <th class="num">Reembolsos</th>}
            <th class="num">Esperado</th>
            {z && <th class="num">Contado</th>}
            {z && <th class="num">Diferencia</th>}
          </tr>
        </thead>
        <tbody>
          {metodos.map((m) => (
            <tr key={m.id_metodo_pago} aria-label={m.nombre}>
              <th scope="row">{m.nombre}</th>
              <td class="num">{m.pagos}</td>
              <td class="num">{soles(m.ventas)}</td>
              <td class="num">{soles(m.propinas)}</td>
              {reembolsos && <td class="num">{soles(m.reembolsos)}</td>}
              <td class="num">{soles(m.esperado)}</td>
              {z && <td class="num">{m.contado === null ? '—' : soles(m.contado)}</td>}
              {z && <Diferencia value={m.diferencia} />}
            </tr>
          ))}
          {metodos.length === 0 && (
            <tr>
              <td colSpan={columns} class="muted">
                Ningún pago todavía.
              </td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr aria-label="Total">
            <th scope="row">Total</th>
            <td class="num">{totales.pagos}</td>
            <td class="num">{soles(totales.ventas)}</td>
            <td class="num">{soles(totales.propinas)}</td>
            {reembolsos && <td class="num">{soles(totales.reembolsos)}</td>}
            <td class="num">{soles(totales.esperado)}</td>
            {z && <td class="num">{totales.contado === null ? '—' : soles(totales.contado)}</td>}
            {z && <Diferencia value={totales.diferencia} />}
          </tr>
        </tfoot>
      </table>

      <div class="reporte-grid">
        {efectivo.map((m) => (
          <EnCaja key={m.id_metodo_pago} metodo={m} />
        ))}
        {conteoOf(reporte).length > 0 && <ConteoView conteo={conteoOf(reporte)} />}
      </div>

      <h3>Movimientos</h3>
      {reporte.movimientos.length === 0 ? (
        <p class="muted">Ningún ingreso ni retiro.</p>
      ) : (
        <table class="table movimientos" aria-label="Movimientos">
          <thead>
            <tr>
              <th>Hora</th>
              <th>Motivo</th>
              <th>Quién</th>
              <th class="num">Monto</th>
            </tr>
          </thead>
          <tbody>
            {reporte.movimientos.map((m) => (
              <tr key={m.id_movimiento}>
                <td class="nowrap">{hora(m.fec_movimiento)}</td>
                <td>
                  <span class={`pill ${m.tipo}`}>
                    {m.tipo === 'ingreso' ? 'Ingreso' : 'Retiro'}
                  </span>{' '}
                  {m.motivo}
                </td>
                <td class="ellipsis">{m.usuario ?? '—'}</td>
                <td class="num">
                  {m.tipo === 'retiro' ? '−' : '+'}
                  {soles(m.monto)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sesion.nota && <p class="observacion">Nota: {sesion.nota}</p>}
    </section>
  );
}

/**
 * The Z's cash count by denomination. The service documents ReporteCajaDto.conteo as bare
 * objects (`type: Object`), so the generated type names no field: the two numbers each entry
 * has are read here, and an entry without them is left out.
 */
function conteoOf(reporte: Reporte): { denominacion: number; cantidad: number }[] {
  const entries: Record<string, unknown>[] = reporte.conteo ?? [];
  return entries.flatMap(({ denominacion, cantidad }) =>
    typeof denominacion === 'number' && typeof cantidad === 'number'
      ? [{ denominacion, cantidad }]
      : [],
  );
}

/** The cash counted note by note at the close: each denomination, how many, and their sum. */
function ConteoView({ conteo }: { conteo: { denominacion: number; cantidad: number }[] }) {
  const lines = conteo.map((c) => ({ ...c, subtotal: centimosOf(c.denominacion) * c.cantidad }));
  return (
    <table class="table conteo" aria-label="Conteo por denominación">
      <caption>Billetes y monedas</caption>
      <tbody>
        {lines.map((c) => (
          <tr key={c.denominacion}>
            <th scope="row">{denominacionLabel(centimosOf(c.denominacion))}</th>
            <td class="num">× {c.cantidad}</td>
            <td class="num">{formatCentimos(c.subtotal)}</td>
          </tr>
        ))}
        <tr class="strong">
          <th scope="row" colSpan={2}>
            Total contado
          </th>
          <td class="num">{formatCentimos(total(lines.map((c) => c.subtotal)))}</td>
        </tr>
      </tbody>
    </table>
  );
}

export function Diferencia({ value }: { value: number | null }) {
  if (value === null) return <td class="num">—</td>;
  return (
    <td class={value === 0 ? 'num' : value < 0 ? 'num falta' : 'num sobra'}>{soles(value)}</td>
  );
}

/** The cash in the till: the float and what came in and went out, against what was counted. */
function EnCaja({ metodo: m }: { metodo: ReporteMetodo }) {
  const rows: [string, string][] = [
    ['Fondo inicial', soles(m.apertura)],
    ['+ Ventas', soles(m.ventas)],
    ['+ Propinas', soles(m.propinas)],
    ['+ Ingresos', soles(m.ingresos)],
    ['− Retiros', soles(m.retiros)],
    ['− Reembolsos', soles(m.reembolsos)],
  ];
  return (
    <table class="table en-caja" aria-label={`${m.nombre} en caja`}>
      <caption>{m.nombre} en caja</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td class="num">{value}</td>
          </tr>
        ))}
        <tr class="strong">
          <th scope="row">= Esperado</th>
          <td class="num">{soles(m.esperado)}</td>
        </tr>
        {m.contado !== null && (
          <tr class="strong">
            <th scope="row">Contado</th>
            <td class="num">{soles(m.contado)}</td>
          </tr>
        )}
        {m.diferencia !== null && (
          <tr>
            <th scope="row">Diferencia</th>
            <Diferencia value={m.diferencia} />
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** The report as the receipt printer prints it (the service lays it out), and "Imprimir". */
export function Receipt({ reporte, text }: { reporte: Reporte; text: string | null }) {
  const name =
    reporte.tipo === 'Z' ? `Ticket del Z N° ${reporte.sesion.numero_z ?? ''}` : 'Ticket del X';
  return (
    <aside class="panel ticket-panel" aria-label={name}>
      <header class="ticket-head">
        <h3>{name}</h3>
        <button type="button" class="small" disabled={text === null} onClick={() => window.print()}>
          Imprimir
        </button>
      </header>
      {text === null ? (
        <p class="muted">Cargando…</p>
      ) : (
        <pre class="receipt" aria-label="Ticket">
          {text}
        </pre>
      )}
    </aside>
  );
}
