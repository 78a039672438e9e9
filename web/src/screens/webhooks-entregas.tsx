import { useEffect, useId, useState } from 'preact/hooks';
import { answer, isAbort, ok } from '../api';
import { ErrorBanner, Notice, Pager } from '../components';
import { hora, plural, sameDay, when } from '../format';
import { useSession } from '../session';
import {
  cuerpoText,
  ENTREGA_ESTADOS,
  entregaEstadoLabel,
  hasPending,
  resultado,
  tipoLabel,
  ultimoResultado,
  whenSeconds,
  type Entrega,
  type Webhook,
} from './webhooks-rules';
import { UrlText } from './webhooks-card';
import { spanish } from './webhooks-form';

/** Deliveries shown a page at a time. */
const PAGE = 10;
/** After "Probar" or "Reenviar", the deliveries are read again this often… */
const POLL_MS = 1_000;
/** …at most this many times, or until none of the page is pendiente. */
const POLLS = 20;

/** An endpoint's deliveries: a state filter, a page at a time, each with its attempts and body. */
export function Entregas({
  webhook,
  watch,
  onPoll,
}: {
  webhook: Webhook;
  /** Changed by "Probar": follow the deliveries until none is pendiente. */
  watch: number;
  /**
   * Each read while following, `done` the last: the endpoint's record may change too (failing,
   * switched off).
   */
  onPoll: (done: boolean) => void;
}) {
  const { api } = useSession();
  const uid = useId();
  const [estado, setEstado] = useState<Entrega['estado'] | ''>('');
  const [offset, setOffset] = useState(0);
  const [tick, setTick] = useState(0);
  /** The page shown, with what it was read for (the filter and offset asked may be newer). */
  const [page, setPage] = useState<{
    tick: number;
    estado: Entrega['estado'] | '';
    offset: number;
    items: Entrega[];
    total: number;
  } | null>(null);
  const [polls, setPolls] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<number[]>([]);
  const [resending, setResending] = useState<number | null>(null);

  const follow = () => {
    setPolls(POLLS);
    setTick((n) => n + 1);
  };

  useEffect(() => {
    if (watch > 0) follow();
  }, [watch]);

  useEffect(() => {
    const controller = new AbortController();
    const at = tick;
    answer(
      api.GET('/api/v1/webhooks/{id}/entregas', {
        params: {
          path: { id: webhook.id_webhook },
          query: { estado: estado || undefined, limit: PAGE, offset },
        },
        signal: controller.signal,
      }),
    )
      .then(({ data, response }) => {
        setError(null);
        setPage({
          tick: at,
          estado,
          offset,
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
        });
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, webhook.id_webhook, estado, offset, tick]);

  // following: read again while a delivery of the page is on its way
  useEffect(() => {
    if (polls <= 0 || !page || page.tick !== tick) return;
    if (!hasPending(page.items)) {
      // out: the rows say how it went
      setPolls(0);
      setNotice(null);
      onPoll(true);
      return;
    }
    const timer = setTimeout(() => {
      setPolls((n) => n - 1);
      setTick((n) => n + 1);
      onPoll(polls === 1);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [polls, page, tick]);

  const resend = async (entrega: Entrega) => {
    if (resending !== null) return;
    setResending(entrega.id_entrega);
    try {
      await ok(
        api.POST('/api/v1/webhooks/entregas/{id}/reenviar', {
          params: { path: { id: entrega.id_entrega } },
        }),
      );
      setError(null);
      setNotice(`Reenviado: ${tipoLabel(entrega.tipo)}, del ${when(entrega.fec_creacion)}.`);
      follow();
    } catch (err) {
      setNotice(null);
      setError(spanish(err));
      onPoll(false);
    } finally {
      setResending(null);
    }
  };

  const toggle = (id: number) =>
    setExpanded((ids) => (ids.includes(id) ? ids.filter((i) => i !== id) : [...ids, id]));

  const items = page?.items ?? [];
  const estadoShown = ENTREGA_ESTADOS.find((e) => e.estado === page?.estado);
  /** Another filter or page asked for, not read yet: the rows shown are the previous ones. */
  const loading = page !== null && (page.estado !== estado || page.offset !== offset);
  return (
    <section class="panel wh-entregas" aria-labelledby={`${uid}-titulo`}>
      <div class="wh-entregas-head">
        <h3 id={`${uid}-titulo`}>
          Entregas a <UrlText url={webhook.url} max={64} />
        </h3>
        <div class="toolbar">
          <label class="inline">
            Estado
            <select
              value={estado}
              onChange={(e) => {
                setOffset(0);
                setEstado(e.currentTarget.value as Entrega['estado'] | '');
              }}
            >
              <option value="">Todas</option>
              {ENTREGA_ESTADOS.map((e) => (
                <option key={e.estado} value={e.estado}>
                  {e.plural}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="secondary small"
            onClick={() => {
              setTick((n) => n + 1);
              onPoll(false);
            }}
          >
            Actualizar
          </button>
        </div>
      </div>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} onClose={() => setError(null)} />
      {!page && !error && <p class="muted">Cargando…</p>}
      {page && (
        <p class="muted wh-resumen" role="status">
          {page.total === 0
            ? page.estado
              ? 'Ningún mensaje en este estado.'
              : 'Ningún mensaje todavía: con «Probar» se envía uno de prueba.'
            : plural(page.total, 'mensaje', 'mensajes') +
              (estadoShown
                ? ` ${page.total === 1 ? estadoShown.label : estadoShown.plural}`.toLowerCase()
                : '') +
              ' · los más recientes primero'}
          {polls > 0 && ' · siguiendo el envío…'}
        </p>
      )}
      {items.length > 0 && (
        <table
          class={loading ? 'table wh-entregas-table loading' : 'table wh-entregas-table'}
          aria-busy={loading}
        >
          <caption class="sr-only">Entregas, las más recientes primero</caption>
          <colgroup>
            <col class="c-evento" />
            <col class="c-estado" />
            <col class="c-intentos" />
            <col />
            <col class="c-fecha" />
            <col class="c-acciones" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Evento</th>
              <th scope="col">Estado</th>
              <th scope="col" class="num">
                Intentos
              </th>
              <th scope="col">Último resultado</th>
              <th scope="col">Fecha</th>
              <th scope="col">
                <span class="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          {items.map((e) => (
            <EntregaRows
              key={e.id_entrega}
              entrega={e}
              open={expanded.includes(e.id_entrega)}
              resending={resending === e.id_entrega}
              onToggle={() => toggle(e.id_entrega)}
              onResend={() => void resend(e)}
            />
          ))}
        </table>
      )}
      {page && page.total > PAGE && (
        <Pager offset={page.offset} size={PAGE} total={page.total} onOffset={setOffset} />
      )}
    </section>
  );
}

/** A delivery's row, and under it, when open, its attempts and the body sent. */
function EntregaRows({
  entrega: e,
  open,
  resending,
  onToggle,
  onResend,
}: {
  entrega: Entrega;
  open: boolean;
  resending: boolean;
  onToggle: () => void;
  onResend: () => void;
}) {
  const uid = useId();
  const last = ultimoResultado(e);
  const failed = e.intentos > 0 && (e.ultimo_error !== null || e.ultimo_status === null);
  return (
    <tbody class={open ? 'wh-entrega open' : 'wh-entrega'} data-estado={e.estado}>
      <tr>
        <td class="wh-tipo">
          <span>{tipoLabel(e.tipo)}</span>
          <code title={e.tipo}>{e.tipo}</code>
        </td>
        <td>
          <span class={`pill wh-${e.estado}`}>{entregaEstadoLabel(e.estado)}</span>
          {e.estado === 'pendiente' && e.proximo_intento && (
            <span class="wh-proximo">
              {e.intentos === 0 ? 'envío' : 'reintento'} {hora(e.proximo_intento)}
            </span>
          )}
        </td>
        <td class="num">{e.intentos}</td>
        <td class={failed ? 'wh-resultado error' : 'wh-resultado'}>
          <span title={last}>{last}</span>
        </td>
        <td class="wh-fecha">
          <span>{when(e.fec_creacion)}</span>
          {e.fec_entrega && (
            <span class="muted">
              entregado{' '}
              {sameDay(e.fec_creacion, e.fec_entrega) ? hora(e.fec_entrega) : when(e.fec_entrega)}
            </span>
          )}
        </td>
        <td>
          <div class="wh-entrega-acciones">
            <button
              type="button"
              class="link"
              aria-expanded={open}
              aria-controls={`${uid}-detalle`}
              onClick={onToggle}
            >
              {open ? 'Ocultar' : 'Detalle'}
            </button>
            {e.acciones.includes('reenviar') && (
              <button
                type="button"
                class="secondary small"
                disabled={resending}
                aria-label={`Reenviar ${e.tipo} del ${when(e.fec_creacion)}`}
                onClick={onResend}
              >
                {resending ? 'Reenviando…' : 'Reenviar'}
              </button>
            )}
          </div>
        </td>
      </tr>
      {open && (
        <tr class="wh-detalle" id={`${uid}-detalle`}>
          <td colSpan={6}>
            <div class="wh-detalle-grid">
              <div>
                <h4>Intentos</h4>
                {e.historial.length === 0 ? (
                  <p class="muted">Aún no se intentó enviar.</p>
                ) : (
                  <ol class="wh-intentos">
                    {e.historial.map((h, i) => (
                      <li key={i} class={h.error || h.status === null ? 'error' : undefined}>
                        <span class="n muted">{i + 1}.</span>
                        <span class="muted">{whenSeconds(h.fec)}</span>
                        <span class="r">{resultado(h.status, h.error)}</span>
                        <span class="muted">{h.duracion_ms} ms</span>
                      </li>
                    ))}
                  </ol>
                )}
                <p class="wh-nota">
                  webhook-id <code>{e.webhook_id}</code>: el mismo en cada intento, para que el
                  receptor no lo procese dos veces.
                </p>
              </div>
              <div>
                <h4>Contenido enviado</h4>
                <pre class="wh-cuerpo">{cuerpoText(e.cuerpo)}</pre>
              </div>
            </div>
          </td>
        </tr>
      )}
    </tbody>
  );
}
