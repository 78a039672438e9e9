import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, newKey } from '../api';
import { Dialog, ErrorBanner, Notice } from '../components';
import { cantidad, hora, soles, when } from '../format';
import { allowedActions, stateOf } from '../rules';
import { useSession } from '../session';
import type { ComandaDetail, ComandaSummary, Evento, Mesa, Producto } from '../types';

/**
 * One comanda: its lines and the actions its state and the user's role allow. Every write
 * carries If-Match (the version shown) and an Idempotency-Key made once per button press, and
 * the button is disabled while it runs: a double tap never doubles an order. A 412 shows the
 * fresh ticket with a notice.
 */
export function ComandaPanel({
  id,
  mesas,
  productos,
  openOthers = [],
  onChanged,
  showTimeline = false,
  refreshToken = 0,
}: {
  id: number;
  mesas: Mesa[];
  productos: Producto[];
  /** Other open comandas (candidates to merge into this one). */
  openOthers?: ComandaSummary[];
  onChanged?: (detail: ComandaDetail) => void;
  showTimeline?: boolean;
  /** Changes when a live event touched this comanda: reload it. */
  refreshToken?: number;
}) {
  const { api, can } = useSession();
  const [detail, setDetail] = useState<ComandaDetail | null>(null);
  const [events, setEvents] = useState<Evento[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<null | 'agregar' | 'dividir' | 'unir' | 'anular' | 'quitar'>(
    null,
  );
  const [lineToRemove, setLineToRemove] = useState<number | null>(null);

  const load = async () => {
    try {
      const fresh = await api.get<ComandaDetail>(`/comandas/${id}`);
      setDetail(fresh);
      if (showTimeline) setEvents(await api.get<Evento[]>(`/comandas/${id}/eventos`));
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    setDetail(null);
    setError(null);
    setNotice(null);
    void load();
  }, [id]);

  // a live event touched this comanda: show it as it is now, keeping what the user was told
  useEffect(() => {
    if (refreshToken > 0 && !busy) void load();
  }, [refreshToken]);

  /** Runs one user action once: one key, the button disabled meanwhile, 412 handled. */
  const act = (run: (key: string, version: number) => Promise<ComandaDetail | void>): void => {
    void perform(run);
  };

  const perform = async (run: (key: string, version: number) => Promise<ComandaDetail | void>) => {
    if (!detail || busy) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const result = await run(newKey(), detail.version);
      if (result) {
        setDetail(result);
        onChanged?.(result);
      }
      if (showTimeline) setEvents(await api.get<Evento[]>(`/comandas/${id}/eventos`));
      setDialog(null);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'STALE_VERSION') {
        setNotice('Otra persona cambió esta comanda: se muestra la versión actual.');
        setDialog(null);
        await load();
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const actions = useMemo(
    () => (detail ? allowedActions(detail, can) : new Set<string>()),
    [detail, can],
  );

  if (!detail)
    return (
      <section class="panel" aria-label="Comanda">
        <ErrorBanner error={error} />
        {!error && <p class="loading">Cargando comanda…</p>}
      </section>
    );

  const state = stateOf(detail);
  /** One write of this user action: its key, the version shown; answers the comanda. */
  const write = (
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    key: string,
    version: number,
  ) =>
    api
      .call<ComandaDetail>(method, path, { body, version, idempotencyKey: key })
      .then((a) => a.body);
  const setQuantity = (itemId: number, qty: number) =>
    act((key, version) =>
      write('PATCH', `/comandas/${id}/items/${itemId}`, { cantidad: qty }, key, version),
    );
  const transition = (action: 'cerrar' | 'abrir' | 'restaurar') =>
    act((key, version) => write('PUT', `/comandas/${id}`, { action }, key, version));

  return (
    <section class="panel" aria-label={`Comanda ${detail.numero_ticket}`}>
      <header class="toolbar">
        <h2>
          Comanda {detail.numero_ticket} <span class={`pill ${state}`}>{state}</span>
        </h2>
        <span class="muted">
          Mesa {detail.mesa ?? 'para llevar'} · {detail.mozo ?? 'sin mozo'} · abierta{' '}
          {hora(detail.fec_apertura)} · versión {detail.version}
        </span>
      </header>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} onClose={() => setError(null)} />
      <table class="table" aria-label="Líneas">
        <thead>
          <tr>
            <th>Producto</th>
            <th class="num">Cant.</th>
            <th class="num">Precio</th>
            <th class="num">Subtotal</th>
            {actions.has('lineas') && <th aria-label="Acciones de línea" />}
          </tr>
        </thead>
        <tbody>
          {detail.lineas.map((l) => (
            <tr key={l.id_item}>
              <td>
                {l.producto}
                {l.nota && <div class="muted">{l.nota}</div>}
              </td>
              <td class="num">
                {actions.has('lineas') ? (
                  <span class="qty">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Una ${l.producto} menos`}
                      disabled={busy || l.cantidad <= 1}
                      onClick={() => setQuantity(l.id_item, l.cantidad - 1)}
                    >
                      −
                    </button>
                    {cantidad(l.cantidad)}
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Una ${l.producto} más`}
                      disabled={busy}
                      onClick={() => setQuantity(l.id_item, l.cantidad + 1)}
                    >
                      +
                    </button>
                  </span>
                ) : (
                  cantidad(l.cantidad)
                )}
              </td>
              <td class="num">{soles(l.precio_unitario)}</td>
              <td class="num">{soles(l.subtotal)}</td>
              {actions.has('lineas') && (
                <td>
                  <button
                    type="button"
                    class="link"
                    disabled={busy}
                    onClick={() => {
                      setLineToRemove(l.id_item);
                      setDialog('quitar');
                    }}
                  >
                    Quitar
                  </button>
                </td>
              )}
            </tr>
          ))}
          {detail.lineas.length === 0 && (
            <tr>
              <td colSpan={5} class="muted">
                Sin líneas todavía.
              </td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={3}>Total</th>
            <th class="num" data-testid="total">
              {soles(detail.total)}
            </th>
          </tr>
        </tfoot>
      </table>

      <div class="actions">
        {actions.has('lineas') && (
          <button type="button" disabled={busy} onClick={() => setDialog('agregar')}>
            Agregar producto
          </button>
        )}
        {actions.has('transferir') && (
          <label class="inline">
            Mesa{' '}
            <select
              aria-label="Cambiar de mesa"
              value={detail.id_mesa ?? ''}
              disabled={busy}
              onChange={(e) => {
                const value = e.currentTarget.value;
                act((key, version) =>
                  write(
                    'PUT',
                    `/comandas/${id}`,
                    { id_mesa: value === '' ? null : Number(value) },
                    key,
                    version,
                  ),
                );
              }}
            >
              <option value="">Para llevar</option>
              {mesas.map((m) => (
                <option key={m.id_mesa} value={m.id_mesa}>
                  Mesa {m.numero}
                </option>
              ))}
            </select>
          </label>
        )}
        {actions.has('dividir') && detail.lineas.length > 0 && (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => setDialog('dividir')}
          >
            Dividir
          </button>
        )}
        {actions.has('unir') && openOthers.length > 0 && (
          <button type="button" class="secondary" disabled={busy} onClick={() => setDialog('unir')}>
            Unir
          </button>
        )}
        {actions.has('cerrar') && (
          <button
            type="button"
            disabled={busy || detail.lineas.length === 0}
            onClick={() => transition('cerrar')}
          >
            Cerrar
          </button>
        )}
        {actions.has('abrir') && (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => transition('abrir')}
          >
            Reabrir
          </button>
        )}
        {actions.has('anular') && (
          <button type="button" class="danger" disabled={busy} onClick={() => setDialog('anular')}>
            Anular
          </button>
        )}
        {actions.has('restaurar') && (
          <button type="button" disabled={busy} onClick={() => transition('restaurar')}>
            Restaurar
          </button>
        )}
      </div>

      {showTimeline && <Timeline events={events} />}

      {dialog === 'agregar' && (
        <Dialog title="Agregar producto" onClose={() => setDialog(null)}>
          <ProductPicker
            productos={productos}
            busy={busy}
            onPick={(p, qty, nota) =>
              act((key, version) =>
                write(
                  'POST',
                  `/comandas/${id}/items`,
                  { id_producto: p.id_producto, cantidad: qty, ...(nota ? { nota } : {}) },
                  key,
                  version,
                ),
              )
            }
          />
        </Dialog>
      )}
      {dialog === 'quitar' && lineToRemove !== null && (
        <ReasonDialog
          title="Quitar línea"
          confirm="Quitar"
          busy={busy}
          onClose={() => setDialog(null)}
          onConfirm={(motivo) =>
            act((key, version) =>
              write(
                'DELETE',
                `/comandas/${id}/items/${lineToRemove}`,
                motivo ? { motivo } : undefined,
                key,
                version,
              ),
            )
          }
        />
      )}
      {dialog === 'anular' && (
        <ReasonDialog
          title="Anular comanda"
          confirm="Anular"
          required
          busy={busy}
          onClose={() => setDialog(null)}
          onConfirm={(motivo) =>
            act((key, version) => write('DELETE', `/comandas/${id}`, { motivo }, key, version))
          }
        />
      )}
      {dialog === 'dividir' && (
        <SplitDialog
          detail={detail}
          mesas={mesas}
          busy={busy}
          onClose={() => setDialog(null)}
          onSplit={(body) =>
            act(async (key, version) => {
              const res = await api.call<{ origen: ComandaDetail; nueva: ComandaDetail }>(
                'POST',
                `/comandas/${id}/split`,
                { body, version, idempotencyKey: key },
              );
              setNotice(`Nueva comanda ${res.body.nueva.numero_ticket} con lo separado.`);
              onChanged?.(res.body.nueva);
              return res.body.origen;
            })
          }
        />
      )}
      {dialog === 'unir' && (
        <MergeDialog
          others={openOthers.filter((c) => c.id_comanda !== id)}
          busy={busy}
          onClose={() => setDialog(null)}
          onMerge={(comandas) =>
            act((key, version) =>
              write('POST', `/comandas/${id}/merge`, { comandas }, key, version),
            )
          }
        />
      )}
    </section>
  );
}

function ProductPicker({
  productos,
  busy,
  onPick,
}: {
  productos: Producto[];
  busy: boolean;
  onPick: (p: Producto, cantidad: number, nota: string) => void;
}) {
  const [q, setQ] = useState('');
  const [qty, setQty] = useState(1);
  const [nota, setNota] = useState('');
  const norm = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const shown = productos
    .filter((p) => p.activo && norm(p.nombre).includes(norm(q.trim())))
    .slice(0, 50);
  return (
    <div class="picker">
      <label>
        Buscar producto
        <input
          type="search"
          value={q}
          autoFocus
          onInput={(e) => setQ(e.currentTarget.value)}
          placeholder="ceviche, chicha…"
        />
      </label>
      <div class="toolbar">
        <label>
          Cantidad
          <input
            type="number"
            min={1}
            max={100}
            value={qty}
            onInput={(e) => setQty(Math.max(1, Number(e.currentTarget.value) || 1))}
          />
        </label>
        <label>
          Nota
          <input
            value={nota}
            onInput={(e) => setNota(e.currentTarget.value)}
            placeholder="sin ají"
          />
        </label>
      </div>
      <ul aria-label="Productos">
        {shown.map((p) => (
          <li key={p.id_producto}>
            <button type="button" disabled={busy} onClick={() => onPick(p, qty, nota.trim())}>
              <span>{p.nombre}</span>
              <span>{soles(p.precio)}</span>
            </button>
          </li>
        ))}
        {shown.length === 0 && <li class="muted">Ningún producto coincide.</li>}
      </ul>
    </div>
  );
}

function ReasonDialog({
  title,
  confirm,
  required = false,
  busy,
  onClose,
  onConfirm,
}: {
  title: string;
  confirm: string;
  required?: boolean;
  busy: boolean;
  onClose: () => void;
  onConfirm: (motivo: string) => void;
}) {
  const [motivo, setMotivo] = useState('');
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm(motivo.trim());
        }}
      >
        <label>
          Motivo
          <input
            name="motivo"
            value={motivo}
            required={required}
            maxLength={500}
            autoFocus
            onInput={(e) => setMotivo(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit" class="danger" disabled={busy || (required && !motivo.trim())}>
            {confirm}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function SplitDialog({
  detail,
  mesas,
  busy,
  onClose,
  onSplit,
}: {
  detail: ComandaDetail;
  mesas: Mesa[];
  busy: boolean;
  onClose: () => void;
  onSplit: (body: {
    lineas: { id_item: number; cantidad: number }[];
    id_mesa?: number | null;
  }) => void;
}) {
  const [picked, setPicked] = useState<Record<number, number>>({});
  const [mesa, setMesa] = useState<string>(String(detail.id_mesa ?? ''));
  const lineas = Object.entries(picked)
    .filter(([, qty]) => qty > 0)
    .map(([item, qty]) => ({ id_item: Number(item), cantidad: qty }));
  return (
    <Dialog title="Dividir la cuenta" onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          onSplit({ lineas, id_mesa: mesa === '' ? null : Number(mesa) });
        }}
      >
        <p class="muted">Lo elegido pasa a una comanda nueva.</p>
        {detail.lineas.map((l) => (
          <label key={l.id_item} class="inline">
            <input
              type="number"
              min={0}
              max={l.cantidad}
              step="any"
              aria-label={`Cantidad de ${l.producto} a separar`}
              value={picked[l.id_item] ?? 0}
              onInput={(e) =>
                setPicked({
                  ...picked,
                  [l.id_item]: Math.min(
                    l.cantidad,
                    Math.max(0, Number(e.currentTarget.value) || 0),
                  ),
                })
              }
            />{' '}
            de {cantidad(l.cantidad)} · {l.producto}
          </label>
        ))}
        <label>
          Mesa de la nueva comanda
          <select value={mesa} onChange={(e) => setMesa(e.currentTarget.value)}>
            <option value="">Para llevar</option>
            {mesas.map((m) => (
              <option key={m.id_mesa} value={m.id_mesa}>
                Mesa {m.numero}
              </option>
            ))}
          </select>
        </label>
        <div class="actions">
          <button type="submit" disabled={busy || lineas.length === 0}>
            Separar
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function MergeDialog({
  others,
  busy,
  onClose,
  onMerge,
}: {
  others: ComandaSummary[];
  busy: boolean;
  onClose: () => void;
  onMerge: (ids: number[]) => void;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  return (
    <Dialog title="Unir comandas" onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          onMerge(chosen);
        }}
      >
        <p class="muted">
          Las líneas de las elegidas pasan a esta comanda; las elegidas quedan anuladas.
        </p>
        {others.map((c) => (
          <label key={c.id_comanda} class="inline">
            <input
              type="checkbox"
              checked={chosen.includes(c.id_comanda)}
              onChange={(e) =>
                setChosen(
                  e.currentTarget.checked
                    ? [...chosen, c.id_comanda]
                    : chosen.filter((x) => x !== c.id_comanda),
                )
              }
            />{' '}
            Comanda {c.numero_ticket} · mesa {c.mesa ?? 'para llevar'} · {soles(c.total)}
          </label>
        ))}
        <div class="actions">
          <button type="submit" disabled={busy || chosen.length === 0}>
            Unir
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancelar
          </button>
        </div>
      </form>
    </Dialog>
  );
}

const ACCIONES: Record<string, string> = {
  crear: 'abrió',
  agregar_item: 'agregó una línea',
  modificar_item: 'cambió una línea',
  quitar_item: 'quitó una línea',
  cerrar: 'cerró',
  abrir: 'reabrió',
  editar: 'editó',
  transferir: 'cambió de mesa',
  eliminar: 'anuló',
  restaurar: 'restauró',
  dividir: 'dividió',
  unir: 'unió',
};

export function Timeline({ events }: { events: Evento[] }) {
  return (
    <section aria-label="Historial de la comanda">
      <h3>Historial</h3>
      <ol class="timeline">
        {events.map((e) => (
          <li key={e.id_evento}>
            <strong>{when(e.fec_evento)}</strong> · {e.usuario ?? 'alguien'}{' '}
            {ACCIONES[e.accion] ?? e.accion}
            {e.motivo && <span class="muted"> — motivo: {e.motivo}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
