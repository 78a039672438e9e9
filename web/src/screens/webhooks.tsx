import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { answer, ApiError, isAbort, ok } from '../api';
import { Dialog, ErrorBanner, Notice, Pager } from '../components';
import { hora, plural, sameDay, when } from '../format';
import { useSession } from '../session';
import {
  buttonsOf,
  changeBody,
  chipsOf,
  createBody,
  cuerpoText,
  DESCRIPCION_MAX,
  draftOf,
  ENTREGA_ESTADOS,
  entregaEstadoLabel,
  fieldErrorsOf,
  hace,
  hasPending,
  isChecked,
  isCovered,
  MODULOS,
  motivoDesactivacion,
  nombre,
  refusalText,
  resultado,
  shortUrl,
  tipoLabel,
  toggleEvento,
  ultimoResultado,
  URL_MAX,
  whenSeconds,
  type Accion,
  type Draft,
  type Entrega,
  type Field,
  type Webhook,
  type WebhookConSecreto,
} from './webhooks-rules';

/** Deliveries shown a page at a time. */
const PAGE = 10;
/** After "Probar" or "Reenviar", the deliveries are read again this often… */
const POLL_MS = 1_000;
/** …at most this many times, or until none of the page is pendiente. */
const POLLS = 20;

/** The dialog open: a new endpoint, or an action on one that asks first. */
type Open = { kind: 'nuevo' } | { kind: 'editar' | 'rotar' | 'eliminar'; webhook: Webhook };

/** The secret of the last creation or rotation: shown once, until the user says it is kept. */
interface Secreto {
  webhook: WebhookConSecreto;
  rotated: boolean;
}

/**
 * Webhooks (docs/webhooks.md): the tenant's endpoints, each with its events, its state and why
 * the service switched it off or since when it fails; adding and changing one (events picked by
 * module), its secret shown once after creating or rotating it; and the deliveries of the
 * endpoint selected, filtered by state and paged, each with its attempts and the body sent.
 * Every endpoint and delivery shows exactly the buttons its `acciones` lists.
 */
export function Webhooks() {
  const { api } = useSession();
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** What was just done; `probe`: the test message under way, said until its delivery is read. */
  const [notice, setNotice] = useState<{ text: string; probe?: boolean } | null>(null);
  const [secreto, setSecreto] = useState<Secreto | null>(null);
  const [open, setOpen] = useState<Open | null>(null);
  const [reload, setReload] = useState(0);
  /** Incremented by "Probar": the deliveries are followed until the message is out. */
  const [watch, setWatch] = useState(0);
  /** The button under way (`id:accion`): pressed once, disabled until answered. */
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/webhooks', { signal: controller.signal }))
      .then((list) => {
        setWebhooks(list);
        setSelected((id) =>
          id !== null && list.some((w) => w.id_webhook === id) ? id : (list[0]?.id_webhook ?? null),
        );
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, reload]);

  const refresh = () => setReload((n) => n + 1);

  /** An endpoint as an answer has it, in its place in the list. */
  const replace = (changed: Webhook) =>
    setWebhooks(
      (list) => list && list.map((w) => (w.id_webhook === changed.id_webhook ? changed : w)),
    );

  const say = (text: string, probe = false) => {
    setError(null);
    setNotice({ text, probe });
  };

  /** The deliveries were read while following a message: the endpoint may have changed too. */
  const onPoll = (done: boolean) => {
    refresh();
    // out (or given up): its row says how it went
    if (done) setNotice((n) => (n?.probe ? null : n));
  };

  /** Runs an endpoint's action once: its button disabled meanwhile, a refusal in the banner. */
  const act = async (webhook: Webhook, accion: Accion, work: () => Promise<void>) => {
    if (pending) return;
    setPending(`${webhook.id_webhook}:${accion}`);
    try {
      await work();
    } catch (err) {
      setNotice(null);
      setError(spanish(err));
      // not as shown (switched off elsewhere, removed): read the list again
      if (err instanceof ApiError && err.status !== 0) refresh();
    } finally {
      setPending(null);
    }
  };

  const onAction = (webhook: Webhook, accion: Accion) => {
    const name = nombre(webhook);
    switch (accion) {
      case 'editar':
      case 'rotar':
      case 'eliminar':
        setOpen({ kind: accion, webhook });
        return;
      case 'probar':
        void act(webhook, accion, async () => {
          await ok(
            api.POST('/api/v1/webhooks/{id}/probar', {
              params: { path: { id: webhook.id_webhook } },
            }),
          );
          setSelected(webhook.id_webhook);
          setWatch((n) => n + 1);
          say(
            `Mensaje de prueba en camino a ${name}: su entrega se ve abajo, en «Entregas».`,
            true,
          );
        });
        return;
      case 'desactivar':
      case 'activar':
        void act(webhook, accion, async () => {
          const changed = await ok(
            api.PATCH('/api/v1/webhooks/{id}', {
              params: { path: { id: webhook.id_webhook } },
              body: { activo: accion === 'activar' },
            }),
          );
          replace(changed);
          say(
            accion === 'activar'
              ? `Webhook ${name} activado: se le envían de nuevo los mensajes, también los que esperaban.`
              : `Webhook ${name} desactivado: no se le envía nada hasta que se active.`,
          );
        });
        return;
    }
  };

  const shown = webhooks?.find((w) => w.id_webhook === selected) ?? null;

  return (
    <section class="webhooks" aria-labelledby="webhooks-titulo">
      <div class="panel">
        <div class="wh-head">
          <div>
            <h2 id="webhooks-titulo">Webhooks</h2>
            <p class="hint">
              Avisos automáticos a otros sistemas (contabilidad, delivery, fidelización): cada
              cambio elegido se envía firmado a la dirección del sistema que lo recibe.
            </p>
          </div>
          <button type="button" onClick={() => setOpen({ kind: 'nuevo' })}>
            Nuevo webhook
          </button>
        </div>

        {secreto && <SecretPanel secreto={secreto} onDone={() => setSecreto(null)} />}
        {notice && <Notice>{notice.text}</Notice>}
        <ErrorBanner error={error} onClose={() => setError(null)} />

        {!webhooks && !error && <p class="muted">Cargando…</p>}
        {webhooks && webhooks.length === 0 && (
          <p class="wh-vacio">
            Todavía no hay webhooks. Con «Nuevo webhook» cada cambio elegido (una comanda cerrada,
            un pago, una merma…) se envía a otro sistema en cuanto ocurre.
          </p>
        )}
        {webhooks && webhooks.length > 0 && (
          <ul class="wh-lista" aria-label="Webhooks">
            {webhooks.map((w) => (
              <li key={w.id_webhook}>
                <WebhookCard
                  webhook={w}
                  selected={w.id_webhook === selected}
                  pending={pending}
                  onSelect={() => setSelected(w.id_webhook)}
                  onAction={(accion) => onAction(w, accion)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>

      {shown && <Entregas key={shown.id_webhook} webhook={shown} watch={watch} onPoll={onPoll} />}

      {open?.kind === 'nuevo' && (
        <WebhookForm
          title="Nuevo webhook"
          initial={draftOf()}
          submitLabel="Crear webhook"
          onClose={() => setOpen(null)}
          onSubmit={async (draft) => {
            const { body, errors } = createBody(draft);
            if (Object.keys(errors).length > 0) return errors;
            const created = await ok(api.POST('/api/v1/webhooks', { body }));
            setOpen(null);
            setWebhooks((list) => [...(list ?? []), created]);
            setSelected(created.id_webhook);
            setSecreto({ webhook: created, rotated: false });
            // the secret's panel says it was created
            setNotice(null);
            setError(null);
            return {};
          }}
        />
      )}
      {open?.kind === 'editar' && (
        <WebhookForm
          title="Editar webhook"
          initial={draftOf(open.webhook)}
          submitLabel="Guardar cambios"
          onClose={() => setOpen(null)}
          onSubmit={async (draft) => {
            const { body, errors } = changeBody(open.webhook, draft);
            if (Object.keys(errors).length > 0) return errors;
            if (Object.keys(body).length === 0) {
              setOpen(null);
              return {};
            }
            const changed = await ok(
              api.PATCH('/api/v1/webhooks/{id}', {
                params: { path: { id: open.webhook.id_webhook } },
                body,
              }),
            );
            setOpen(null);
            replace(changed);
            say(`Webhook ${nombre(changed)} guardado.`);
            return {};
          }}
        />
      )}
      {open?.kind === 'rotar' && (
        <ConfirmDialog
          title="Rotar el secreto"
          confirmLabel="Rotar secreto"
          busyLabel="Rotando…"
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            const rotated = await ok(
              api.POST('/api/v1/webhooks/{id}/rotar', {
                params: { path: { id: open.webhook.id_webhook } },
              }),
            );
            setOpen(null);
            replace(rotated);
            setSecreto({ webhook: rotated, rotated: true });
            setNotice(null);
            setError(null);
          }}
        >
          <p>
            Se genera un secreto nuevo para <UrlText url={open.webhook.url} />, que se muestra una
            sola vez. El actual sigue firmando durante 24 horas: hay tiempo para cambiarlo en el
            sistema que recibe los mensajes sin perder ninguno.
          </p>
        </ConfirmDialog>
      )}
      {open?.kind === 'eliminar' && (
        <ConfirmDialog
          title="Eliminar el webhook"
          confirmLabel="Eliminar"
          busyLabel="Eliminando…"
          danger
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await ok(
              api.DELETE('/api/v1/webhooks/{id}', {
                params: { path: { id: open.webhook.id_webhook } },
              }),
            );
            setOpen(null);
            setWebhooks(
              (list) => list && list.filter((w) => w.id_webhook !== open.webhook.id_webhook),
            );
            if (secreto?.webhook.id_webhook === open.webhook.id_webhook) setSecreto(null);
            say(`Webhook ${nombre(open.webhook)} eliminado.`);
            refresh();
          }}
        >
          <p>
            No se enviará nada más a <UrlText url={open.webhook.url} />, y se borran sus entregas
            registradas. No se puede deshacer: para dejar de enviar por un tiempo, use «Desactivar».
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** A URL shortened for a line of text, whole on hover. */
function UrlText({ url, max = 64 }: { url: string; max?: number }) {
  return (
    <span class="wh-url" title={url}>
      {shortUrl(url, max)}
    </span>
  );
}

function WebhookCard({
  webhook: w,
  selected,
  pending,
  onSelect,
  onAction,
}: {
  webhook: Webhook;
  selected: boolean;
  pending: string | null;
  onSelect: () => void;
  onAction: (accion: Accion) => void;
}) {
  const uid = useId();
  const chips = chipsOf(w.eventos);
  const buttons = buttonsOf(w.acciones);
  const short = shortUrl(w.url, 80);
  const busy = (accion: Accion) => pending === `${w.id_webhook}:${accion}`;
  const apagadoPorServicio = w.estado === 'inactivo' && w.motivo_desactivacion;
  const anteriorVigente =
    w.secreto_anterior_hasta !== null && Date.parse(w.secreto_anterior_hasta) > Date.now();
  return (
    <article
      class={selected ? 'wh-card selected' : 'wh-card'}
      aria-labelledby={`${uid}-url`}
      data-estado={w.estado}
    >
      <div class="wh-card-head">
        <span id={`${uid}-url`} class="wh-url" title={w.url}>
          {short}
        </span>
        <span class={`pill wh-${w.estado}`}>{w.estado === 'activo' ? 'Activo' : 'Inactivo'}</span>
      </div>
      {w.descripcion && (
        <p class="wh-desc" title={w.descripcion}>
          {w.descripcion}
        </p>
      )}
      <ul class="wh-chips" aria-label="Eventos">
        {chips.map((c) => (
          <li key={c.label} class="wh-chip" title={c.title}>
            {c.label}
          </li>
        ))}
      </ul>
      {apagadoPorServicio && (
        <p class="wh-alerta danger">
          Desactivado por el servicio{w.fec_desactivacion && ` el ${when(w.fec_desactivacion)}`}:{' '}
          {motivoDesactivacion(w.motivo_desactivacion ?? '')}. Revise el sistema que recibe y
          actívelo de nuevo.
        </p>
      )}
      {w.estado === 'inactivo' && !apagadoPorServicio && (
        <p class="wh-alerta">Desactivado: no se le envía nada hasta que se active.</p>
      )}
      {w.estado === 'activo' && w.fallando_desde && (
        <p class="wh-alerta warn">
          Falla desde el {when(w.fallando_desde)} ({hace(w.fallando_desde, Date.now())}): se
          reintenta; tras 5 días sin entregar nada se desactiva solo.
        </p>
      )}
      {anteriorVigente && (
        <p class="wh-nota">
          El secreto anterior también firma hasta el {when(w.secreto_anterior_hasta)}.
        </p>
      )}
      <div class="wh-card-actions">
        <button
          type="button"
          class={selected ? 'small' : 'secondary small'}
          aria-pressed={selected}
          aria-label={`Entregas de ${short}`}
          onClick={onSelect}
        >
          Entregas
        </button>
        {buttons.map((b) => (
          <button
            key={b.accion}
            type="button"
            class={
              b.accion === 'eliminar'
                ? 'secondary small wh-eliminar'
                : b.accion === 'desactivar' || b.accion === 'activar'
                  ? 'secondary small push'
                  : 'secondary small'
            }
            disabled={pending !== null}
            aria-label={`${b.label}: ${short}`}
            onClick={() => onAction(b.accion)}
          >
            {busy(b.accion) ? '…' : b.label}
          </button>
        ))}
      </div>
    </article>
  );
}

/** The secret just created or rotated: shown this once, with a copy button. */
function SecretPanel({ secreto, onDone }: { secreto: Secreto; onDone: () => void }) {
  const uid = useId();
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<'ok' | 'manual' | null>(null);
  const { webhook, rotated } = secreto;

  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
    input.current?.focus();
    input.current?.select();
    setCopied(null);
  }, [webhook.secreto]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(webhook.secreto);
      setCopied('ok');
    } catch {
      // no clipboard (a page not served over https): the text is selected for Ctrl+C
      input.current?.focus();
      input.current?.select();
      setCopied('manual');
    }
  };

  return (
    <section ref={panel} class="wh-secreto" aria-labelledby={`${uid}-titulo`}>
      <h3 id={`${uid}-titulo`}>
        {rotated ? 'Nuevo secreto de firma' : 'Secreto de firma'} de{' '}
        <UrlText url={webhook.url} max={56} />
      </h3>
      <p class="wh-aviso">
        <strong>Cópielo ahora: no se volverá a mostrar.</strong> El sistema que recibe los mensajes
        lo usa para comprobar que vienen de este restaurante. Si se pierde, genere otro con «Rotar
        secreto».
      </p>
      {rotated && webhook.secreto_anterior_hasta && (
        <p class="wh-nota">
          El secreto anterior sigue firmando hasta el {when(webhook.secreto_anterior_hasta)}:
          cámbielo en el sistema que recibe antes de esa hora.
        </p>
      )}
      <div class="wh-secreto-valor">
        <input
          ref={input}
          id={`${uid}-valor`}
          readOnly
          value={webhook.secreto}
          aria-label="Secreto de firma"
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          {copied === 'ok' ? 'Copiado' : 'Copiar'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Ya lo guardé
        </button>
      </div>
      <p class="wh-copiado" role="status">
        {copied === 'ok'
          ? 'Copiado al portapapeles.'
          : copied === 'manual'
            ? 'Este navegador no deja copiar desde la página: el secreto está seleccionado, cópielo con Ctrl+C.'
            : ''}
      </p>
    </section>
  );
}

/** An endpoint's deliveries: a state filter, a page at a time, each with its attempts and body. */
function Entregas({
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

/** A refusal as the banner shows it: the module's own codes in Spanish. */
function spanish(err: unknown): unknown {
  return (err instanceof ApiError && refusalText(err)) || err;
}

/** Runs a dialog's request once: the button disabled meanwhile, a refusal shown in it. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(spanish(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

function ConfirmDialog({
  title,
  confirmLabel,
  busyLabel,
  danger = false,
  onClose,
  onConfirm,
  children,
}: {
  title: string;
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  children: ComponentChildren;
}) {
  const { busy, error, setError, run } = useSubmit();
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorBanner error={error} onClose={() => setError(null)} />
      <div class="actions">
        <button
          type="button"
          class={danger ? 'danger' : undefined}
          disabled={busy}
          autoFocus
          onClick={() => void run(onConfirm)}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onClose}>
          Volver
        </button>
      </div>
    </Dialog>
  );
}

function WebhookForm({
  title,
  initial,
  submitLabel,
  onClose,
  onSubmit,
}: {
  title: string;
  initial: Draft;
  submitLabel: string;
  onClose: () => void;
  /** Sends the draft; answers the problems of its fields (none: it was sent). */
  onSubmit: (draft: Draft) => Promise<Partial<Record<Field, string>>>;
}) {
  const uid = useId();
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, error, setError, run } = useSubmit();
  const idOf = (field: Field) => `${uid}-${field}`;

  const set = <K extends Field>(field: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const focusFirst = (problems: Partial<Record<Field, string>>) => {
    const first = (['url', 'descripcion', 'eventos'] as Field[]).find((f) => problems[f]);
    if (first) document.getElementById(idOf(first))?.focus();
  };

  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      try {
        const problems = await onSubmit(draft);
        setErrors(problems);
        focusFirst(problems);
      } catch (err) {
        const at = err instanceof ApiError ? fieldErrorsOf(err) : {};
        if (Object.keys(at).length === 0) throw err;
        setErrors(at);
        focusFirst(at);
      }
    });
  };

  const described = (name: Field) => ({
    id: idOf(name),
    'aria-invalid': errors[name] ? ('true' as const) : undefined,
    'aria-describedby': errors[name] ? `${idOf(name)}-error` : undefined,
  });
  const fieldError = (name: Field) =>
    errors[name] && (
      <span id={`${idOf(name)}-error`} class="field-error">
        {errors[name]}
      </span>
    );

  return (
    <Dialog title={title} onClose={onClose} variant="wide">
      <form class="wh-form" aria-label={title} onSubmit={submit} noValidate>
        <div class="field">
          <label for={idOf('url')}>Dirección que recibe los mensajes</label>
          <input
            {...described('url')}
            type="url"
            inputMode="url"
            value={draft.url}
            maxLength={URL_MAX}
            autoComplete="off"
            spellcheck={false}
            autoFocus
            placeholder="https://erp.ejemplo.com/webhooks/comandas"
            onInput={(e) => set('url', e.currentTarget.value)}
          />
          {fieldError('url')}
        </div>
        <div class="field">
          <label for={idOf('descripcion')}>Descripción (opcional)</label>
          <input
            {...described('descripcion')}
            value={draft.descripcion}
            maxLength={DESCRIPCION_MAX}
            autoComplete="off"
            placeholder="Contabilidad: ventas cerradas"
            onInput={(e) => set('descripcion', e.currentTarget.value)}
          />
          {fieldError('descripcion')}
        </div>
        <fieldset
          class="wh-eventos"
          id={idOf('eventos')}
          tabIndex={-1}
          aria-invalid={errors.eventos ? 'true' : undefined}
          aria-describedby={errors.eventos ? `${idOf('eventos')}-error` : `${uid}-eventos-hint`}
        >
          <legend>Eventos que se envían</legend>
          <p id={`${uid}-eventos-hint`} class="hint">
            «Todos» incluye también los eventos que el servicio agregue más adelante.
          </p>
          {fieldError('eventos')}
          <div class="wh-modulos">
            {MODULOS.map((m) => {
              const todos = draft.eventos.includes(m.todos);
              return (
                <fieldset key={m.modulo} class={`wh-modulo wh-modulo-${m.modulo}`}>
                  <legend>{m.label}</legend>
                  <label class="wh-check todos" title={m.todos}>
                    <input
                      type="checkbox"
                      checked={todos}
                      onChange={(e) =>
                        set(
                          'eventos',
                          toggleEvento(draft.eventos, m.todos, e.currentTarget.checked),
                        )
                      }
                    />
                    <span>Todos</span>
                  </label>
                  <div class="wh-checks">
                    {m.eventos.map((ev) => (
                      <label key={ev.evento} class="wh-check" title={ev.evento}>
                        <input
                          type="checkbox"
                          checked={isChecked(draft.eventos, ev.evento)}
                          disabled={isCovered(draft.eventos, ev.evento)}
                          onChange={(e) =>
                            set(
                              'eventos',
                              toggleEvento(draft.eventos, ev.evento, e.currentTarget.checked),
                            )
                          }
                        />
                        <span>{ev.label}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              );
            })}
          </div>
        </fieldset>
        <ErrorBanner error={error} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Guardando…' : submitLabel}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={onClose}>
            Volver
          </button>
        </div>
      </form>
    </Dialog>
  );
}
