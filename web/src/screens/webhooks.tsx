import { useEffect, useState } from 'preact/hooks';
import { ApiError, isAbort, ok } from '../api';
import { ErrorBanner, Notice } from '../components';
import { useSession } from '../session';
import {
  changeBody,
  createBody,
  draftOf,
  nombre,
  type Accion,
  type Webhook,
} from './webhooks-rules';
import { UrlText, WebhookCard } from './webhooks-card';
import { SecretPanel, type Secreto } from './webhooks-secreto';
import { Entregas } from './webhooks-entregas';
import { ConfirmDialog, WebhookForm, spanish } from './webhooks-form';

/** The dialog open: a new endpoint, or an action on one that asks first. */
type Open = { kind: 'nuevo' } | { kind: 'editar' | 'rotar' | 'eliminar'; webhook: Webhook };

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
