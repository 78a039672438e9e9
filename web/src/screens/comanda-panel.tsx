import { useEffect, useState } from 'preact/hooks';
import {
  ApiError,
  ifMatch,
  newKey,
  ok,
  type ComandaDetail,
  type ComandaEvento,
  type ComandaSummary,
  type Mesa,
  type Mozo,
  type Producto,
  type Schemas,
  type WriteHeaders,
} from '../api';
import type { Catalog } from '../catalog';
import { Dialog, ErrorBanner, Notice } from '../components';
import { allows, ESTADO, estadoDe, type Accion } from '../floor-state';
import { cantidad, hora, sameDay, soles, when } from '../format';
import { useSession } from '../session';
import { Cobrar } from './cobrar';
import { ESTADO_PAGO, pagosResumen } from './cobrar-rules';
import { ESTADO_COCINA, heldCourses } from './cocina-rules';

type DialogName = 'agregar' | 'quitar' | 'anular' | 'dividir' | 'unir' | 'editar' | 'cobrar';

/**
 * One comanda: its lines, and a button for each action the service lists in its `acciones`
 * for this user now, and for nothing else. Every write carries If-Match (the version shown)
 * and an Idempotency-Key made once per button press, and the buttons are disabled while it
 * runs: a double tap never doubles an order. A 412 shows the fresh ticket with a notice.
 */
export function ComandaPanel({
  id,
  catalog,
  openOthers = [],
  onChanged,
  showTimeline = false,
  refreshToken = 0,
}: {
  id: number;
  catalog: Catalog;
  /** The open comandas (candidates to merge into this one). */
  openOthers?: ComandaSummary[];
  onChanged?: (comanda: ComandaSummary) => void;
  showTimeline?: boolean;
  /** Changes when a live event touched this comanda: reload it. */
  refreshToken?: number;
}) {
  const { api } = useSession();
  const [detail, setDetail] = useState<ComandaDetail | null>(null);
  const [events, setEvents] = useState<ComandaEvento[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const [lineToRemove, setLineToRemove] = useState<number | null>(null);
  const path = { id };

  const loadEvents = async () => {
    if (showTimeline)
      setEvents(await ok(api.GET('/api/v1/comandas/{id}/eventos', { params: { path } })));
  };

  const load = async () => {
    try {
      setDetail(await ok(api.GET('/api/v1/comandas/{id}', { params: { path } })));
      await loadEvents();
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    setDetail(null);
    setError(null);
    setNotice(null);
    setDialog(null);
    void load();
    // another user signed in ("Cambiar de usuario"): the same comanda, with their acciones
  }, [id, api]);

  // a live event touched this comanda: show it as it is now, keeping what the user was told
  useEffect(() => {
    if (refreshToken > 0 && !busy) void load();
  }, [refreshToken]);

  /** Runs one user action once: one key, the buttons disabled meanwhile, 412 handled. */
  const act = (run: (headers: WriteHeaders) => Promise<ComandaDetail>): void => {
    void perform(run);
  };

  /**
   * The write's answer (the comanda as it is now), or null when it was refused. The dialog that
   * asked for it closes, unless `keepOpen` (Cobrar takes one tender after another).
   */
  const perform = async (
    run: (headers: WriteHeaders) => Promise<ComandaDetail>,
    { keepOpen = false }: { keepOpen?: boolean } = {},
  ): Promise<ComandaDetail | null> => {
    if (!detail || busy) return null;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const result = await run({
        'If-Match': ifMatch(detail.version),
        'Idempotency-Key': newKey(),
      });
      setDetail(result);
      onChanged?.(result);
      if (!keepOpen) setDialog(null);
      await loadEvents();
      return result;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'STALE_VERSION') {
        setNotice('Otra persona cambió esta comanda: se muestra la versión actual.');
        if (!keepOpen) setDialog(null);
        await load();
      } else setError(err);
      return null;
    } finally {
      setBusy(false);
    }
  };

  if (!detail)
    return (
      <section class="panel comanda" aria-label="Comanda">
        <ErrorBanner error={error} />
        {!error && <p class="loading">Cargando comanda…</p>}
      </section>
    );

  const estado = estadoDe(detail);
  const may = (accion: Accion) => allows(detail, accion);
  const change = (body: { cantidad: number }, itemId: number) =>
    act((header) =>
      ok(
        api.PATCH('/api/v1/comandas/{id}/items/{itemId}', {
          params: { path: { id, itemId }, header },
          body,
        }),
      ),
    );
  const update = (body: Schemas['UpdateComandaBody']) =>
    act((header) => ok(api.PUT('/api/v1/comandas/{id}', { params: { path, header }, body })));
  const others = openOthers.filter((c) => c.id_comanda !== id);
  /** A later instant of the same day by its time only. */
  const later = (iso: string) => (sameDay(iso, detail.fec_apertura) ? hora(iso) : when(iso));
  const meta = [
    detail.mesa !== null ? `Mesa ${detail.mesa}` : 'Para llevar',
    detail.mozo ?? 'sin mozo',
    `abierta ${when(detail.fec_apertura)}`,
    ...(detail.fec_cierre ? [`cerrada ${later(detail.fec_cierre)}`] : []),
    ...(detail.fec_eliminacion ? [`anulada ${later(detail.fec_eliminacion)}`] : []),
  ].join(' · ');

  const removeLine = (itemId: number) => {
    setLineToRemove(itemId);
    setDialog('quitar');
  };
  /** A button of one of the comanda's acciones; `unavailable` disables it and says why. */
  const action = (
    label: string,
    onClick: () => void,
    options: { variant?: string; unavailable?: string | false } = {},
  ) => (
    <button
      key={label}
      type="button"
      class={options.variant}
      disabled={busy || Boolean(options.unavailable)}
      title={options.unavailable || undefined}
      onClick={onClick}
    >
      {label}
    </button>
  );
  const empty = detail.lineas.length === 0;
  /** With cobros: what is still owed (a closing needs the bill paid). */
  const owed = detail.saldo !== undefined && detail.saldo > 0 ? detail.saldo : 0;
  const main = [
    may('agregar_item') && action('Agregar producto', () => setDialog('agregar')),
    may('abrir') && action('Reabrir', () => update({ action: 'abrir' })),
    may('restaurar') && action('Restaurar', () => update({ action: 'restaurar' })),
    may('pagar') &&
      action('Cobrar', () => setDialog('cobrar'), {
        unavailable: empty && 'Una comanda sin productos no se cobra',
      }),
    may('cerrar') &&
      action('Cerrar', () => update({ action: 'cerrar' }), {
        variant: may('pagar') ? 'close secondary' : 'close',
        unavailable:
          (empty && 'Una comanda sin productos no se cierra') ||
          (owed > 0 && `Falta cobrar ${soles(owed)}`),
      }),
  ].filter(Boolean);
  /** The kitchen (feature cocina): send what is new, fire a held course. */
  const kitchen = (run: (header: WriteHeaders) => Promise<unknown>) =>
    act(async (header) => {
      await run(header);
      return ok(api.GET('/api/v1/comandas/{id}', { params: { path } }));
    });
  const held = heldCourses(detail.lineas);
  const cocina = [
    may('enviar') &&
      action(
        'Enviar a cocina',
        () =>
          kitchen((header) =>
            ok(api.POST('/api/v1/comandas/{id}/enviar', { params: { path, header } })),
          ),
        { variant: 'secondary' },
      ),
    ...(may('disparar')
      ? held.map((n) =>
          action(
            `Disparar curso ${n}`,
            () =>
              kitchen((header) =>
                ok(
                  api.POST('/api/v1/comandas/{id}/cursos/{n}/disparar', {
                    params: { path: { id, n }, header },
                  }),
                ),
              ),
            { variant: 'secondary' },
          ),
        )
      : []),
  ].filter(Boolean);
  const more = [
    may('transferir') && (
      <label key="mesa" class="inline">
        <span>Mesa</span>
        <select
          aria-label="Cambiar de mesa"
          value={detail.id_mesa ?? ''}
          disabled={busy}
          onChange={(e) => {
            const value = e.currentTarget.value;
            update({ id_mesa: value === '' ? null : Number(value) });
          }}
        >
          <MesaOptions mesas={catalog.mesas} current={detail.id_mesa} />
        </select>
      </label>
    ),
    may('dividir') &&
      action('Dividir', () => setDialog('dividir'), {
        variant: 'secondary small',
        unavailable: empty && 'Sin productos que separar',
      }),
    may('unir') &&
      action('Unir', () => setDialog('unir'), {
        variant: 'secondary small',
        unavailable: others.length === 0 && 'No hay otra comanda abierta',
      }),
    may('editar') && action('Editar', () => setDialog('editar'), { variant: 'secondary small' }),
    may('eliminar') && action('Anular', () => setDialog('anular'), { variant: 'danger small' }),
  ].filter(Boolean);

  return (
    <section class="panel comanda" aria-label={`Comanda ${detail.numero_ticket}`}>
      <header class="comanda-head">
        <div class="title">
          <h2>
            Comanda {detail.numero_ticket} <span class={`pill ${estado}`}>{ESTADO[estado]}</span>
          </h2>
          <strong class="total" data-testid="total">
            {soles(detail.total)}
          </strong>
        </div>
        <p class="meta">{meta}</p>
        {detail.cliente && <p class="meta">Cliente: {detail.cliente}</p>}
        {detail.estado_pago && (
          <p class="meta cobro" data-testid="cobro">
            <span class={`pill ${detail.estado_pago}`}>{ESTADO_PAGO[detail.estado_pago]}</span>
            {(detail.pagado ?? 0) > 0 && <span>pagado {soles(detail.pagado ?? 0)}</span>}
            {owed > 0 && <span>saldo {soles(owed)}</span>}
            {(detail.propinas ?? 0) > 0 && <span>propinas {soles(detail.propinas ?? 0)}</span>}
          </p>
        )}
        {detail.pagos && pagosResumen(detail.pagos, soles) && (
          <p class="meta" data-testid="pagos">
            {pagosResumen(detail.pagos, soles)}
          </p>
        )}
        {detail.observacion && <p class="observacion">{detail.observacion}</p>}
      </header>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} onClose={() => setError(null)} />
      {main.length > 0 && <div class="actions main">{main}</div>}
      {more.length > 0 && <div class="actions more">{more}</div>}
      {cocina.length > 0 && <div class="actions cocina">{cocina}</div>}
      <div class="comanda-body">
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
                        onClick={() => change({ cantidad: l.cantidad - 1 }, l.id_item)}
                      >
                        −
                      </button>
                      <span class="qty-value">{cantidad(l.cantidad)}</span>
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`${l.producto}: una más`}
                        disabled={busy}
                        onClick={() => change({ cantidad: l.cantidad + 1 }, l.id_item)}
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
                          onClick={() =>
                            act((header) =>
                              ok(
                                api.POST('/api/v1/comandas/{id}/items/{itemId}/entregar', {
                                  params: { path: { id, itemId: l.id_item }, header },
                                }),
                              ),
                            )
                          }
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
                      onClick={() => removeLine(l.id_item)}
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

        {showTimeline && <Timeline events={events} />}
      </div>

      {dialog === 'cobrar' && may('pagar') && (
        <Cobrar
          detail={detail}
          busy={busy}
          error={error}
          notice={notice}
          perform={perform}
          onClose={() => setDialog(null)}
          onNotice={setNotice}
        />
      )}
      {dialog === 'agregar' && (
        <Dialog title="Agregar producto" onClose={() => setDialog(null)}>
          <ProductPicker
            productos={catalog.productos}
            busy={busy}
            onPick={(p, qty, nota) =>
              act((header) =>
                ok(
                  api.POST('/api/v1/comandas/{id}/items', {
                    params: { path, header },
                    body: { id_producto: p.id_producto, cantidad: qty, ...(nota ? { nota } : {}) },
                  }),
                ),
              )
            }
          />
        </Dialog>
      )}
      {dialog === 'quitar' && lineToRemove !== null && (
        <ReasonDialog
          title="Quitar producto"
          confirm="Quitar"
          busy={busy}
          onClose={() => setDialog(null)}
          onConfirm={(motivo) =>
            act((header) =>
              ok(
                api.DELETE('/api/v1/comandas/{id}/items/{itemId}', {
                  params: { path: { id, itemId: lineToRemove }, header },
                  body: motivo ? { motivo } : undefined,
                }),
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
            act((header) =>
              ok(
                api.DELETE('/api/v1/comandas/{id}', { params: { path, header }, body: { motivo } }),
              ),
            )
          }
        />
      )}
      {dialog === 'editar' && (
        <EditDialog
          detail={detail}
          mozos={catalog.mozos}
          busy={busy}
          onClose={() => setDialog(null)}
          onSave={(body) => (Object.keys(body).length > 0 ? update(body) : setDialog(null))}
        />
      )}
      {dialog === 'dividir' && (
        <SplitDialog
          detail={detail}
          mesas={catalog.mesas}
          busy={busy}
          onClose={() => setDialog(null)}
          onSplit={(body) =>
            act(async (header) => {
              const { origen, nueva } = await ok(
                api.POST('/api/v1/comandas/{id}/split', { params: { path, header }, body }),
              );
              setNotice(`Nueva comanda ${nueva.numero_ticket} con lo separado.`);
              onChanged?.(nueva);
              return origen;
            })
          }
        />
      )}
      {dialog === 'unir' && (
        <MergeDialog
          others={others}
          busy={busy}
          onClose={() => setDialog(null)}
          onMerge={(comandas) =>
            act((header) =>
              ok(
                api.POST('/api/v1/comandas/{id}/merge', {
                  params: { path, header },
                  body: { comandas },
                }),
              ),
            )
          }
        />
      )}
    </section>
  );
}

/** Lower case without accents: "cevi" finds "Ceviche clásico", "clasico" too. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

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
  const shown = productos
    .filter((p) => p.activo && fold(p.nombre).includes(fold(q.trim())))
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
      <div class="picker-options">
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
              <span class="name">
                {p.nombre}
                {p.categoria && <span class="muted small"> · {p.categoria}</span>}
              </span>
              <span>{soles(p.precio)}</span>
            </button>
          </li>
        ))}
        {shown.length === 0 && <li class="muted empty">Ningún producto coincide.</li>}
      </ul>
    </div>
  );
}

/** The choices of a table: take-away, then the tables in use (and `current`, even retired). */
function MesaOptions({ mesas, current }: { mesas: Mesa[]; current?: number | null }) {
  return (
    <>
      <option value="">Para llevar</option>
      {mesas
        .filter((m) => m.activo || m.id_mesa === current)
        .map((m) => (
          <option key={m.id_mesa} value={m.id_mesa}>
            Mesa {m.numero}
          </option>
        ))}
    </>
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
          Motivo{required ? '' : ' (opcional)'}
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

/** The waiter and the note of an open comanda: only what changed is sent. */
function EditDialog({
  detail,
  mozos,
  busy,
  onClose,
  onSave,
}: {
  detail: ComandaDetail;
  mozos: Mozo[];
  busy: boolean;
  onClose: () => void;
  onSave: (body: { id_usuario?: number | null; observacion?: string | null }) => void;
}) {
  const [mozo, setMozo] = useState(String(detail.id_usuario ?? ''));
  const [observacion, setObservacion] = useState(detail.observacion ?? '');
  const choices = mozos.filter((m) => m.activo || m.id_usuario === detail.id_usuario);
  return (
    <Dialog title="Editar comanda" onClose={onClose}>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          const id_usuario = mozo === '' ? null : Number(mozo);
          const nota = observacion.trim() === '' ? null : observacion.trim();
          onSave({
            ...(id_usuario !== detail.id_usuario ? { id_usuario } : {}),
            ...(nota !== detail.observacion ? { observacion: nota } : {}),
          });
        }}
      >
        <label>
          Mozo
          <select value={mozo} onChange={(e) => setMozo(e.currentTarget.value)}>
            <option value="">Sin mozo</option>
            {choices.map((m) => (
              <option key={m.id_usuario} value={m.id_usuario}>
                {m.nombre}
              </option>
            ))}
          </select>
        </label>
        <label>
          Observación
          <input
            value={observacion}
            maxLength={500}
            placeholder="cumpleaños, paga con tarjeta…"
            onInput={(e) => setObservacion(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit" disabled={busy}>
            Guardar
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
        <div class="split-lines">
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
              />
              <span>
                de {cantidad(l.cantidad)} · {l.producto}
              </span>
            </label>
          ))}
        </div>
        <label>
          Mesa de la nueva comanda
          <select value={mesa} onChange={(e) => setMesa(e.currentTarget.value)}>
            <MesaOptions mesas={mesas} />
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
        <div class="merge-list">
          {[...others]
            .sort((a, b) => (a.mesa ?? Infinity) - (b.mesa ?? Infinity))
            .map((c) => (
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
                />
                <span>
                  Comanda {c.numero_ticket} · {c.mesa !== null ? `mesa ${c.mesa}` : 'para llevar'} ·{' '}
                  {soles(c.total)}
                </span>
              </label>
            ))}
        </div>
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

/** The audit entries as sentences: "Rosa Quispe anuló — motivo: …". */
const DONE: Record<ComandaEvento['accion'], string> = {
  crear: 'abrió la comanda',
  agregar_item: 'agregó un producto',
  modificar_item: 'cambió una cantidad',
  quitar_item: 'quitó un producto',
  cerrar: 'cerró la cuenta',
  abrir: 'reabrió la comanda',
  editar: 'editó la comanda',
  transferir: 'cambió de mesa',
  eliminar: 'anuló la comanda',
  restaurar: 'restauró la comanda',
  dividir: 'dividió la cuenta',
  unir: 'unió comandas',
  pagar: 'cobró un pago',
  anular_pago: 'anuló un pago',
  descontar: 'cambió el descuento',
  reembolsar: 'reembolsó',
  enviar: 'envió a cocina',
  disparar: 'disparó un tiempo',
  entregar: 'entregó un plato',
  preparar: 'empezó un pedido en cocina',
  listo: 'marcó un pedido listo',
  recuperar: 'recuperó un pedido en cocina',
};

export function Timeline({ events }: { events: ComandaEvento[] }) {
  return (
    <section class="timeline-box" aria-label="Historial de la comanda">
      <h3>Historial</h3>
      <ol class="timeline">
        {events.map((e) => (
          <li key={e.id_evento}>
            <time dateTime={e.fec_evento}>{when(e.fec_evento)}</time>
            <span>
              <strong>{e.usuario ?? 'Alguien'}</strong> {DONE[e.accion] ?? e.accion}
              {e.motivo && <span class="muted"> — motivo: {e.motivo}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
