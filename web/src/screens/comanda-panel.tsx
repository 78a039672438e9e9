import { useEffect, useState } from 'preact/hooks';
import {
  ApiError,
  ifMatch,
  newKey,
  ok,
  type ComandaDetail,
  type ComandaEvento,
  type ComandaSummary,
  type Schemas,
  type WriteHeaders,
} from '../api';
import type { Catalog } from '../catalog';
import { Dialog, ErrorBanner, Notice } from '../components';
import { allows, ESTADO, estadoDe, type Accion } from '../floor-state';
import { hora, sameDay, soles, when } from '../format';
import { useSession } from '../session';
import { Cobrar } from './cobrar';
import { ESTADO_PAGO, pagosResumen } from './cobrar-rules';
import { heldCourses } from './cocina-rules';
import {
  EditDialog,
  MergeDialog,
  MesaOptions,
  ProductPicker,
  ReasonDialog,
  SplitDialog,
} from './comanda-dialogs';
import { Lineas } from './comanda-lineas';
import { Timeline } from './comanda-timeline';

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
        <Lineas
          detail={detail}
          may={may}
          busy={busy}
          onChange={(itemId, cantidad) => change({ cantidad }, itemId)}
          onDeliver={(itemId) =>
            act((header) =>
              ok(
                api.POST('/api/v1/comandas/{id}/items/{itemId}/entregar', {
                  params: { path: { id, itemId }, header },
                }),
              ),
            )
          }
          onRemove={removeLine}
        />

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
