import type { ComandaDetail } from '../api';
import type { Accion } from '../floor-state';
import { cantidad, soles } from '../format';
import { ESTADO_COCINA } from './cocina-rules';

/**
 * A comanda's lines: quantity, product (its price, note and, with the kitchen, its state and
 * course) and amount; the buttons of the comanda's `acciones`: one more or one less, deliver a
 * dish that is ready, remove a line.
 */
export function Lineas({
  detail,
  may,
  busy,
  onChange,
  onDeliver,
  onRemove,
}: {
  detail: ComandaDetail;
  may: (accion: Accion) => boolean;
  busy: boolean;
  /** A line's new quantity. */
  onChange: (itemId: number, cantidad: number) => void;
  onDeliver: (itemId: number) => void;
  onRemove: (itemId: number) => void;
}) {
  return (
    <table class="table lineas" aria-label="Líneas">
      <thead>
        <tr>
          <th class="qty-col">Cant.</th>
          <th>Producto</th>
          <th class="num">Importe</th>
        </tr>
      </thead>
      <tbody>
        {detail.lineas.map((l) => (
          <tr key={l.id_item}>
            <td class="qty-col">
              {may('modificar_item') ? (
                <span class="qty">
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`${l.producto}: una menos`}
                    disabled={busy || l.cantidad <= 1}
                    onClick={() => onChange(l.id_item, l.cantidad - 1)}
                  >
                    −
                  </button>
                  <span class="qty-value">{cantidad(l.cantidad)}</span>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`${l.producto}: una más`}
                    disabled={busy}
                    onClick={() => onChange(l.id_item, l.cantidad + 1)}
                  >
                    +
                  </button>
                </span>
              ) : (
                <span class="qty-value">{cantidad(l.cantidad)}</span>
              )}
            </td>
            <td class="producto">
              <span>{l.producto}</span>
              <span class="muted small">
                {soles(l.precio_unitario)} c/u{l.nota && ` · ${l.nota}`}
              </span>
              {l.estado_cocina && (
                <span class="kitchen-state">
                  <span class={`pill cocina-${l.estado_cocina}`} data-testid="estado-cocina">
                    {ESTADO_COCINA[l.estado_cocina]}
                  </span>
                  <span class="muted small">· curso {l.curso ?? 1}</span>
                  {l.estado_cocina === 'listo' && may('entregar') && (
                    <button
                      type="button"
                      class="small"
                      aria-label={`Entregar ${l.producto}`}
                      disabled={busy}
                      onClick={() => onDeliver(l.id_item)}
                    >
                      Entregar
                    </button>
                  )}
                </span>
              )}
            </td>
            <td class="num">
              <span>{soles(l.subtotal)}</span>
              {may('quitar_item') && (
                <button
                  type="button"
                  class="link remove"
                  aria-label={`Quitar ${l.producto}`}
                  disabled={busy}
                  onClick={() => onRemove(l.id_item)}
                >
                  Quitar
                </button>
              )}
            </td>
          </tr>
        ))}
        {detail.lineas.length === 0 && (
          <tr>
            <td colSpan={3} class="muted">
              Sin productos todavía.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
