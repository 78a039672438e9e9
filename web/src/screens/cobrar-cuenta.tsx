import { useId, useState } from 'preact/hooks';
import type { ComandaDetail, Schemas } from '../api';
import { soles } from '../format';
import { checkDescuento, ESTADO_PAGO, pagoDetalle, type Pago } from './cobrar-rules';

/** `18 %`, `10.5 %`: a rate the API sends as a fraction (0.18), for reading. */
function percent(rate: number): string {
  return `${(rate * 100).toFixed(2).replace(/\.?0+$/, '')} %`;
}

/** The comanda's discount as it was set, or null (the answer gives its fields flat). */
function discountOf(detail: ComandaDetail) {
  return detail.descuento_tipo
    ? {
        tipo: detail.descuento_tipo,
        valor: detail.descuento_valor ?? 0,
        motivo: detail.descuento_motivo ?? '',
      }
    : null;
}

/** The bill as the service computed it: every figure is the API's, formatted. */
export function Bill({ detail }: { detail: ComandaDetail }) {
  const regla = discountOf(detail);
  const rows: [string, string, string?][] = [
    ['Subtotal', soles(detail.subtotal ?? detail.total)],
    [
      regla
        ? `Descuento (${regla.tipo === 'porcentaje' ? `${regla.valor} %` : soles(regla.valor)})`
        : 'Descuento',
      (detail.descuento ?? 0) > 0 ? `−${soles(detail.descuento ?? 0)}` : soles(0),
    ],
    ['Recargo al consumo', soles(detail.recargo_consumo ?? 0)],
    ['Total', soles(detail.total), 'strong'],
  ];
  if (detail.igv)
    rows.push(
      ['Base imponible', soles(detail.igv.base), 'minor'],
      [`IGV incluido (${percent(detail.igv.tasa)})`, soles(detail.igv.monto), 'minor'],
    );
  rows.push(
    ['Redondeo', soles(detail.redondeo ?? 0)],
    ['Propinas', soles(detail.propinas ?? 0)],
    ['Pagado', soles(detail.pagado ?? 0)],
  );
  return (
    <table class="table bill" aria-label="Cuenta">
      <tbody>
        {rows.map(([label, value, kind]) => (
          <tr key={label} class={kind}>
            <th scope="row">{label}</th>
            <td class="num">{value}</td>
          </tr>
        ))}
        <tr class="strong saldo">
          <th scope="row">
            Saldo{' '}
            {detail.estado_pago && (
              <span class={`pill ${detail.estado_pago}`}>{ESTADO_PAGO[detail.estado_pago]}</span>
            )}
          </th>
          <td class="num" data-testid="saldo">
            {soles(detail.saldo ?? 0)}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export function PagoRow({
  pago,
  busy,
  voiding,
  onVoid,
  onCancel,
  onConfirm,
}: {
  pago: Pago;
  busy: boolean;
  voiding: boolean;
  onVoid: () => void;
  onCancel: () => void;
  onConfirm: (motivo: string) => void;
}) {
  const [motivo, setMotivo] = useState('');
  const detalle = pagoDetalle(pago, soles);
  const anulado = pago.estado === 'anulado';
  const name = `${pago.metodo} ${soles(pago.monto)}`;
  return (
    <>
      <tr class={anulado ? 'anulado' : undefined} aria-label={`Pago ${name}`}>
        <td>
          <span class="metodo-name">
            {pago.metodo}
            {anulado && <span class="pill eliminada">anulado</span>}
          </span>
          {detalle && <span class="muted small detalle">{detalle}</span>}
        </td>
        <td class="num monto">{soles(pago.monto)}</td>
        <td class="num">{soles(pago.propina)}</td>
        <td class="num">
          {pago.acciones.includes('anular') && !voiding && (
            <button
              type="button"
              class="link"
              aria-label={`Anular el pago ${name}`}
              disabled={busy}
              onClick={onVoid}
            >
              Anular
            </button>
          )}
        </td>
      </tr>
      {voiding && (
        <tr class="void-row">
          <td colSpan={4}>
            <form
              class="void-form"
              aria-label={`Anular el pago ${name}`}
              onSubmit={(e) => {
                e.preventDefault();
                if (motivo.trim()) onConfirm(motivo.trim());
              }}
            >
              <label>
                Motivo
                <input
                  value={motivo}
                  required
                  maxLength={500}
                  autoFocus
                  placeholder="se cobró con el método equivocado"
                  onInput={(e) => setMotivo(e.currentTarget.value)}
                />
              </label>
              <button type="submit" class="danger small" disabled={busy || !motivo.trim()}>
                Anular pago
              </button>
              <button type="button" class="secondary small" onClick={onCancel}>
                No anular
              </button>
            </form>
          </td>
        </tr>
      )}
    </>
  );
}

/** The discount of the comanda: a percentage of its lines or an amount, with its reason. */
export function DescuentoForm({
  detail,
  busy,
  onCancel,
  onSave,
}: {
  detail: ComandaDetail;
  busy: boolean;
  onCancel: () => void;
  onSave: (body: Schemas['DescuentoBody']) => void;
}) {
  const regla = discountOf(detail);
  const [tipo, setTipo] = useState<'porcentaje' | 'monto'>(regla?.tipo ?? 'porcentaje');
  const [valor, setValor] = useState(regla ? String(regla.valor) : '');
  const [motivo, setMotivo] = useState(regla?.motivo ?? '');
  const checked = checkDescuento(tipo, valor, motivo);
  const ids = useId();
  return (
    <form
      class="descuento"
      aria-label="Descuento"
      onSubmit={(e) => {
        e.preventDefault();
        if (Object.keys(checked.errors).length === 0)
          onSave({ tipo, valor: checked.valor, motivo: motivo.trim() });
      }}
    >
      <label>
        Tipo
        <select
          value={tipo}
          onChange={(e) => setTipo(e.currentTarget.value as 'porcentaje' | 'monto')}
        >
          <option value="porcentaje">Porcentaje</option>
          <option value="monto">Monto</option>
        </select>
      </label>
      <div class="field">
        <label for={`${ids}-valor`}>{tipo === 'porcentaje' ? 'Porcentaje (%)' : 'Monto'}</label>
        <input
          id={`${ids}-valor`}
          class="amount"
          inputMode="decimal"
          value={valor}
          placeholder="0 lo quita"
          aria-invalid={valor !== '' && checked.errors.valor ? true : undefined}
          onInput={(e) => setValor(e.currentTarget.value)}
        />
        {valor !== '' && checked.errors.valor && (
          <span class="field-error">{checked.errors.valor}</span>
        )}
      </div>
      <label class="wide">
        Motivo
        <input
          value={motivo}
          maxLength={500}
          placeholder="cliente frecuente"
          onInput={(e) => setMotivo(e.currentTarget.value)}
        />
      </label>
      <div class="actions wide">
        <button
          type="submit"
          class="small"
          disabled={busy || Object.keys(checked.errors).length > 0}
        >
          Aplicar descuento
        </button>
        <button type="button" class="secondary small" onClick={onCancel}>
          Cancelar
        </button>
      </div>
    </form>
  );
}
