import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { isAbort, ok, type ComandaDetail, type Schemas, type WriteHeaders } from '../api';
import { Dialog, ErrorBanner, Notice } from '../components';
import { allows } from '../floor-state';
import { soles } from '../format';
import { useSession } from '../session';
import { Bill, DescuentoForm, PagoRow } from './cobrar-cuenta';
import { NuevoPago } from './cobrar-pago';
import type { Metodo, Pago, PagoBody } from './cobrar-rules';

type Sesion = Schemas['SesionCajaDto'];

/**
 * Runs one write of the comanda as the panel does (If-Match of the version shown, one
 * Idempotency-Key per press, the buttons disabled meanwhile, a 412 shown with the fresh bill):
 * the comanda as the service answered it, or null when it was refused. `keepOpen` keeps this
 * dialog open afterwards (another tender follows).
 */
export type Perform = (
  run: (headers: WriteHeaders) => Promise<ComandaDetail>,
  options?: { keepOpen?: boolean },
) => Promise<ComandaDetail | null>;

/**
 * "Cobrar": the bill of an open comanda (subtotal, discount, service charge, total with its IGV,
 * rounding, tips, paid, balance), its payments (each with "Anular" when its `acciones` lists
 * it) and a new payment, whose effect the service works out as it is typed (NuevoPago). Several
 * tenders one after the other (each POST /pagos); "Cobrar y cerrar" when the service says the
 * one typed settles the bill (one PUT: pay and close together, or neither); "Cerrar comanda"
 * once nothing is owed.
 */
export function Cobrar({
  detail,
  busy,
  error,
  notice,
  perform,
  onClose,
  onNotice,
}: {
  detail: ComandaDetail;
  busy: boolean;
  error: unknown;
  notice: string | null;
  perform: Perform;
  onClose: () => void;
  onNotice: (text: string) => void;
}) {
  const { api, can, me } = useSession();
  const id = detail.id_comanda;
  const path = { id };
  const [metodos, setMetodos] = useState<Metodo[] | null>(null);
  /** The open till sessions; null when the user does not operate tills (the service picks one). */
  const [abiertas, setAbiertas] = useState<Sesion[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [idMetodo, setIdMetodo] = useState<number | null>(null);
  const [idCaja, setIdCaja] = useState<string>('');
  const [voiding, setVoiding] = useState<number | null>(null);
  const [discounting, setDiscounting] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    ok(api.GET('/api/v1/metodos-pago', { signal }))
      .then((list) => {
        setMetodos(list);
        setIdMetodo((current) => current ?? list[0]?.id_metodo_pago ?? null);
      })
      .catch((err) => !isAbort(err) && setLoadError(err));
    if (can('caja:operate'))
      ok(
        api.GET('/api/v1/sesiones-caja', {
          params: { query: { estado: 'abierta', limit: 50 } },
          signal,
          cache: 'no-store',
        }),
      )
        .then((list) => {
          setAbiertas(list);
          const mine = list.find((s) => s.id_usuario_apertura === me.id_usuario);
          if (list.length > 1 && mine) setIdCaja(String(mine.id_caja));
        })
        .catch((err) => !isAbort(err) && setLoadError(err));
    return () => controller.abort();
  }, [api]);

  // a new bill: no void left half asked
  useLayoutEffect(() => setVoiding(null), [detail.version]);

  const metodo = metodos?.find((m) => m.id_metodo_pago === idMetodo);
  const saldo = detail.saldo ?? 0;

  const pay = (body: PagoBody) =>
    void perform(
      (header) => ok(api.POST('/api/v1/comandas/{id}/pagos', { params: { path, header }, body })),
      { keepOpen: true },
    );
  const payAndClose = async (body: PagoBody) => {
    const done = await perform((header) =>
      ok(
        api.PUT('/api/v1/comandas/{id}', {
          params: { path, header },
          body: { action: 'cerrar', pagos: [body] },
        }),
      ),
    );
    // the change to give is the payment's as the service took it: the newest of the answer
    const vuelto = done?.pagos?.at(-1)?.vuelto ?? 0;
    if (done)
      onNotice(
        `Comanda ${done.numero_ticket} cobrada y cerrada.` +
          (vuelto > 0 ? ` Vuelto: ${soles(vuelto)}.` : ''),
      );
  };
  const close = async () => {
    const done = await perform((header) =>
      ok(
        api.PUT('/api/v1/comandas/{id}', { params: { path, header }, body: { action: 'cerrar' } }),
      ),
    );
    if (done) onNotice(`Comanda ${done.numero_ticket} cobrada y cerrada.`);
  };
  const voidPago = (pago: Pago, motivo: string) =>
    void perform(
      (header) =>
        ok(
          api.DELETE('/api/v1/comandas/{id}/pagos/{idPago}', {
            params: { path: { id, idPago: pago.id_pago }, header },
            body: { motivo },
          }),
        ),
      { keepOpen: true },
    );

  const discount = async (descuento: Schemas['DescuentoBody']) => {
    const done = await perform(
      (header) =>
        ok(
          api.POST('/api/v1/comandas/{id}/descuento', {
            params: { path, header },
            body: descuento,
          }),
        ),
      { keepOpen: true },
    );
    if (done) setDiscounting(false);
  };

  const pagos = detail.pagos ?? [];
  const title = `Cobrar comanda ${detail.numero_ticket}`;
  return (
    <Dialog title={title} onClose={onClose} variant="wide cobrar-dialog">
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error ?? loadError} />
      <div class="cobrar">
        <section class="cuenta" aria-label="Cuenta">
          <h3>Cuenta</h3>
          <Bill detail={detail} />
          {allows(detail, 'descontar') &&
            (discounting ? (
              <DescuentoForm
                detail={detail}
                busy={busy}
                onCancel={() => setDiscounting(false)}
                onSave={(descuento) => void discount(descuento)}
              />
            ) : (
              <button
                type="button"
                class="link descuento-open"
                disabled={busy}
                onClick={() => setDiscounting(true)}
              >
                {detail.descuento_tipo ? 'Cambiar el descuento' : 'Aplicar un descuento'}
              </button>
            ))}
          <h3>Pagos</h3>
          {pagos.length === 0 ? (
            <p class="muted">Ningún pago todavía.</p>
          ) : (
            <table class="table pagos" aria-label="Pagos">
              <thead>
                <tr>
                  <th>Método</th>
                  <th class="num">Monto</th>
                  <th class="num">Propina</th>
                  <th>
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {pagos.map((p) => (
                  <PagoRow
                    key={p.id_pago}
                    pago={p}
                    busy={busy}
                    voiding={voiding === p.id_pago}
                    onVoid={() => setVoiding(p.id_pago)}
                    onCancel={() => setVoiding(null)}
                    onConfirm={(motivo) => voidPago(p, motivo)}
                  />
                ))}
              </tbody>
            </table>
          )}
        </section>

        {saldo > 0 && metodos === null ? (
          <p class="tender muted">
            {loadError
              ? 'No se pudieron leer los métodos de pago.'
              : 'Cargando los métodos de pago…'}
          </p>
        ) : saldo > 0 && metodos ? (
          <NuevoPago
            detail={detail}
            metodos={metodos}
            metodo={metodo}
            onMetodo={(m) => setIdMetodo(m.id_metodo_pago)}
            abiertas={abiertas}
            idCaja={idCaja}
            onCaja={setIdCaja}
            busy={busy}
            otro={pagos.some((p) => p.estado === 'aplicado')}
            onPay={pay}
            onPayAndClose={(body) => void payAndClose(body)}
          />
        ) : (
          <section class="tender done" aria-label="Cuenta pagada">
            {saldo < 0 ? (
              <p class="banner error">Se cobró {soles(-saldo)} de más: anule el pago que sobra.</p>
            ) : (
              <p class="paid">La cuenta está pagada.</p>
            )}
            {allows(detail, 'cerrar') && saldo === 0 && (
              <div class="actions">
                <button type="button" disabled={busy} onClick={() => void close()}>
                  Cerrar comanda
                </button>
              </div>
            )}
          </section>
        )}
      </div>
    </Dialog>
  );
}
