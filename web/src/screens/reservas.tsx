import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { answer, ApiError, ifMatch, isAbort, ok, type Schemas } from '../api';
import { Dialog, ErrorBanner, Notice } from '../components';
import { addDays, dayLabel, nowIn, todayIn } from '../dates';
import { plural } from '../format';
import { useSession } from '../session';
import {
  buttonsOf,
  changeBody,
  createBody,
  dayFigures,
  draftOf,
  ESTADOS,
  estadoLabel,
  fieldErrorsOf,
  lateText,
  mesaLabel,
  minutesLate,
  NOMBRE_MAX,
  OBSERVACION_MAX,
  PERSONAS_MAX,
  TELEFONO_MAX,
  type Accion,
  type Draft,
  type Estado,
  type Field,
  type Reserva,
} from './reservas-rules';

type Mesa = Schemas['MesaDto'];

/** The most reservations of one day the screen lists (the API's page limit). */
const LIMIT = 500;

/** The dialog open: a new booking, or an action on one reservation. */
type Open = { kind: 'nueva' } | { kind: Accion; reserva: Reserva };

/**
 * Reservas (docs/reservas.md): the book of one business day in time order, booking, changing,
 * seating (which opens the party's comanda and goes to the floor), cancelling with a reason and
 * no-shows. Each reservation shows exactly the buttons its `acciones` lists. Every change sends
 * If-Match with the version shown: a reservation someone else changed meanwhile is shown again
 * as it is now.
 */
export function Reservas() {
  const { api, tenant, can } = useSession();
  const today = todayIn(tenant.timeZone);
  const [fecha, setFecha] = useState(today);
  const [estado, setEstado] = useState<Estado | ''>('');
  const [mesas, setMesas] = useState<Mesa[]>([]);
  const [day, setDay] = useState<{ fecha: string; items: Reserva[]; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [open, setOpen] = useState<Open | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/mesas', { signal: controller.signal }))
      .then(setMesas)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api]);

  useEffect(() => {
    const controller = new AbortController();
    answer(
      api.GET('/api/v1/reservas', {
        params: { query: { fecha, estado: estado || undefined, limit: LIMIT } },
        signal: controller.signal,
      }),
    )
      .then(({ data, response }) =>
        setDay({
          fecha,
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
        }),
      )
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, fecha, estado, reload]);

  const refresh = () => setReload((n) => n + 1);

  /**
   * After a write: the dialog closes, the reservation is shown as the answer has it, the day is
   * read again (its order, its figures, other people's changes), and the user is told.
   */
  const done = (text: string, changed: Reserva) => {
    setOpen(null);
    setError(null);
    setNotice(text);
    setDay(
      (d) =>
        d && {
          ...d,
          items: d.items.map((r) => (r.id_reserva === changed.id_reserva ? changed : r)),
        },
    );
    refresh();
  };

  /** A refusal that says the reservation is not as shown: read the day again. */
  const outdated = (err: unknown) => {
    setOpen(null);
    if (err instanceof ApiError && err.code === 'STALE_VERSION') {
      setError(null);
      setNotice('Otra persona cambió esta reserva mientras tanto: se muestra como está ahora.');
    } else {
      setNotice(null);
      setError(err);
    }
    refresh();
  };

  const shown = day?.fecha === fecha ? day : null;
  const figures = shown ? dayFigures(shown.items) : null;
  const mesaOf = (id: number | null) => mesas.find((m) => m.id_mesa === id);

  return (
    <section class="panel reservas" aria-labelledby="reservas-titulo">
      <div class="reservas-head">
        <h2 id="reservas-titulo">
          {fecha === today
            ? `Reservas de hoy · ${dayLabel(fecha)}`
            : `Reservas del ${dayLabel(fecha)}`}
        </h2>
        {can('reservas:write') && (
          <button type="button" onClick={() => setOpen({ kind: 'nueva' })}>
            Nueva reserva
          </button>
        )}
      </div>
      <div class="toolbar">
        <button
          type="button"
          class="secondary"
          aria-label="Día anterior"
          onClick={() => setFecha(addDays(fecha, -1))}
        >
          ‹
        </button>
        <label>
          Día
          <input
            type="date"
            value={fecha}
            required
            onInput={(e) => e.currentTarget.value && setFecha(e.currentTarget.value)}
          />
        </label>
        <button
          type="button"
          class="secondary"
          aria-label="Día siguiente"
          onClick={() => setFecha(addDays(fecha, 1))}
        >
          ›
        </button>
        <button
          type="button"
          class="secondary"
          disabled={fecha === today}
          onClick={() => setFecha(today)}
        >
          Hoy
        </button>
        <label>
          Estado
          <select value={estado} onChange={(e) => setEstado(e.currentTarget.value as Estado | '')}>
            <option value="">Todas</option>
            {ESTADOS.map((e) => (
              <option key={e.estado} value={e.estado}>
                {e.plural}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={refresh}>
          Actualizar
        </button>
      </div>

      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} onClose={() => setError(null)} />

      {!shown && !error && <p class="muted">Cargando…</p>}
      {shown && figures && (
        <p class="muted" role="status">
          {figures.reservas === 0
            ? estado
              ? 'Ninguna reserva en este estado.'
              : 'Ninguna reserva este día.'
            : plural(figures.reservas, 'reserva', 'reservas') +
              (figures.pendientes > 0
                ? ` · ${figures.pendientes} por llegar (${plural(figures.esperadas, 'persona', 'personas')})`
                : '') +
              (figures.sentadas > 0 ? ` · ${plural(figures.sentadas, 'sentada', 'sentadas')}` : '')}
          {shown.total > shown.items.length &&
            ` · se muestran las primeras ${shown.items.length} de ${shown.total}`}
        </p>
      )}
      {shown && shown.items.length > 0 && (
        <BookTable
          reservas={shown.items}
          today={today}
          now={nowIn(tenant.timeZone)}
          mesaOf={mesaOf}
          onAction={(reserva, accion) => setOpen({ kind: accion, reserva })}
        />
      )}

      {open?.kind === 'nueva' && (
        <ReservaForm
          title="Nueva reserva"
          initial={draftOf(fecha < today ? today : fecha)}
          mesas={mesas}
          submitLabel="Reservar"
          onClose={() => setOpen(null)}
          onSubmit={async (draft) => {
            const { body, errors } = createBody(draft, today);
            if (Object.keys(errors).length > 0) return errors;
            const created = await ok(api.POST('/api/v1/reservas', { body }));
            if (created.fecha !== fecha) setFecha(created.fecha);
            done(`Reserva de ${created.nombre} para las ${created.hora} registrada.`, created);
            return {};
          }}
        />
      )}
      {open?.kind === 'editar' && (
        <ReservaForm
          title={`Modificar la reserva de ${open.reserva.nombre}`}
          initial={draftOf(open.reserva.fecha, open.reserva)}
          mesas={mesas}
          submitLabel="Guardar cambios"
          onClose={() => setOpen(null)}
          onRefused={outdated}
          onSubmit={async (draft) => {
            const { body, errors } = changeBody(open.reserva, draft, today);
            if (Object.keys(errors).length > 0) return errors;
            if (Object.keys(body).length === 0) {
              setOpen(null);
              return {};
            }
            const changed = await ok(
              api.PATCH('/api/v1/reservas/{id}', {
                params: {
                  path: { id: open.reserva.id_reserva },
                  header: { 'If-Match': ifMatch(open.reserva.version) },
                },
                body,
              }),
            );
            if (changed.fecha !== fecha) setFecha(changed.fecha);
            done(`Reserva de ${changed.nombre} modificada.`, changed);
            return {};
          }}
        />
      )}
      {open?.kind === 'sentar' && (
        <SeatDialog
          reserva={open.reserva}
          mesas={mesas}
          onClose={() => setOpen(null)}
          onRefused={outdated}
          onSeat={async (idMesa) => {
            await ok(
              api.POST('/api/v1/reservas/{id}/sentar', {
                params: {
                  path: { id: open.reserva.id_reserva },
                  header: { 'If-Match': ifMatch(open.reserva.version) },
                },
                body: idMesa === open.reserva.id_mesa ? {} : { id_mesa: idMesa },
              }),
            );
            // the party's comanda is open at its table: the floor is where it is served
            location.hash = '#/sala';
          }}
        />
      )}
      {open?.kind === 'cancelar' && (
        <CancelDialog
          reserva={open.reserva}
          onClose={() => setOpen(null)}
          onRefused={outdated}
          onCancel={async (motivo) => {
            const cancelled = await ok(
              api.POST('/api/v1/reservas/{id}/cancelar', {
                params: {
                  path: { id: open.reserva.id_reserva },
                  header: { 'If-Match': ifMatch(open.reserva.version) },
                },
                body: { motivo },
              }),
            );
            done(`Reserva de ${cancelled.nombre} cancelada.`, cancelled);
          }}
        />
      )}
      {open?.kind === 'no_show' && (
        <NoShowDialog
          reserva={open.reserva}
          onClose={() => setOpen(null)}
          onRefused={outdated}
          onConfirm={async () => {
            const marked = await ok(
              api.POST('/api/v1/reservas/{id}/no-show', {
                params: {
                  path: { id: open.reserva.id_reserva },
                  header: { 'If-Match': ifMatch(open.reserva.version) },
                },
              }),
            );
            done(`${marked.nombre}: marcada como que no vino.`, marked);
          }}
        />
      )}
    </section>
  );
}

function BookTable({
  reservas,
  today,
  now,
  mesaOf,
  onAction,
}: {
  reservas: Reserva[];
  today: string;
  now: string;
  mesaOf: (id: number | null) => Mesa | undefined;
  onAction: (reserva: Reserva, accion: Accion) => void;
}) {
  return (
    <table class="table book">
      <caption class="sr-only">Reservas del día por hora</caption>
      <thead>
        <tr>
          <th scope="col">Hora</th>
          <th scope="col">Reserva</th>
          <th scope="col" class="num">
            Personas
          </th>
          <th scope="col">Mesa</th>
          <th scope="col">Estado</th>
          <th scope="col">
            <span class="sr-only">Acciones</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {reservas.map((r) => {
          const late = minutesLate(r, today, now);
          const final = r.estado !== 'pendiente';
          const buttons = buttonsOf(r.acciones);
          const mesa = mesaOf(r.id_mesa);
          return (
            <tr key={r.id_reserva} class={final ? 'final' : undefined}>
              <td class="hora">{r.hora}</td>
              <td class="quien">
                <strong>{r.nombre}</strong>
                {(r.telefono || r.cliente) && (
                  <span class="muted">
                    {[r.telefono, r.cliente && `cliente: ${r.cliente}`].filter(Boolean).join(' · ')}
                  </span>
                )}
                {r.observacion && <span class="nota">{r.observacion}</span>}
              </td>
              <td class="num">{r.personas}</td>
              <td class="mesa-cell">
                {r.id_mesa === null ? (
                  <span class="muted">sin mesa</span>
                ) : (
                  <span title={mesa ? mesaLabel(mesa) : undefined}>Mesa {r.mesa ?? r.id_mesa}</span>
                )}
              </td>
              <td>
                <div class="estado">
                  <span class={`pill ${r.estado}`}>{estadoLabel(r.estado)}</span>
                  {late > 0 && <span class="late">{lateText(late)}</span>}
                  {r.estado === 'sentada' && r.id_comanda !== null && (
                    <a href="#/sala">comanda en Sala</a>
                  )}
                  {r.estado === 'cancelada' && r.motivo && <span class="muted">{r.motivo}</span>}
                </div>
              </td>
              <td>
                <div class="acciones">
                  {buttons.map((b) => (
                    <button
                      key={b.accion}
                      type="button"
                      class={b.accion === 'sentar' ? undefined : 'secondary'}
                      aria-label={`${b.label}: ${r.nombre}, ${r.hora}`}
                      onClick={() => onAction(r, b.accion)}
                    >
                      {b.label}
                    </button>
                  ))}
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Runs a dialog's request once: the button disabled meanwhile, a refusal shown or handed on. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>, onRefused?: (err: unknown) => void) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      // not as shown any more (changed, or no longer pendiente): the day is read again
      if (
        onRefused &&
        err instanceof ApiError &&
        (err.code === 'STALE_VERSION' || err.code === 'INVALID_TRANSITION')
      )
        onRefused(err);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

function ReservaForm({
  title,
  initial,
  mesas,
  submitLabel,
  onClose,
  onSubmit,
  onRefused,
}: {
  title: string;
  initial: Draft;
  mesas: Mesa[];
  submitLabel: string;
  onClose: () => void;
  /** Sends the draft; answers the problems of its fields (none: it was sent). */
  onSubmit: (draft: Draft) => Promise<Partial<Record<Field, string>>>;
  onRefused?: (err: unknown) => void;
}) {
  const uid = useId();
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, error, setError, run } = useSubmit();
  const idOf = (field: Field) => `${uid}-${field}`;

  const set = (field: Field, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      try {
        const problems = await onSubmit(draft);
        setErrors(problems);
        focusFirst(problems);
      } catch (err) {
        const at = err instanceof ApiError ? fieldErrorsOf(err, mesas) : {};
        if (Object.keys(at).length === 0) throw err;
        setErrors(at);
        focusFirst(at);
      }
    }, onRefused);
  };

  const focusFirst = (problems: Partial<Record<Field, string>>) => {
    const first = (Object.keys(draft) as Field[]).find((f) => problems[f]);
    if (first) document.getElementById(idOf(first))?.focus();
  };

  const field = (name: Field, label: string, control: JSX.Element, wide = false) => (
    <div class={wide ? 'field wide' : 'field'}>
      <label for={idOf(name)}>{label}</label>
      {control}
      {errors[name] && (
        <span id={`${idOf(name)}-error`} class="field-error">
          {errors[name]}
        </span>
      )}
    </div>
  );
  const described = (name: Field) => ({
    id: idOf(name),
    'aria-invalid': errors[name] ? ('true' as const) : undefined,
    'aria-describedby': errors[name] ? `${idOf(name)}-error` : undefined,
  });

  return (
    <Dialog title={title} onClose={onClose}>
      <form class="reserva-form" aria-label={title} onSubmit={submit} noValidate>
        {field(
          'nombre',
          'Nombre',
          <input
            {...described('nombre')}
            value={draft.nombre}
            maxLength={NOMBRE_MAX}
            autoComplete="off"
            autoFocus
            onInput={(e) => set('nombre', e.currentTarget.value)}
          />,
          true,
        )}
        {field(
          'telefono',
          'Teléfono',
          <input
            {...described('telefono')}
            type="tel"
            value={draft.telefono}
            maxLength={TELEFONO_MAX}
            autoComplete="off"
            onInput={(e) => set('telefono', e.currentTarget.value)}
          />,
        )}
        {field(
          'personas',
          'Personas',
          <input
            {...described('personas')}
            type="number"
            min={1}
            max={PERSONAS_MAX}
            step={1}
            inputMode="numeric"
            value={draft.personas}
            onInput={(e) => set('personas', e.currentTarget.value)}
          />,
        )}
        {field(
          'fecha',
          'Día',
          <input
            {...described('fecha')}
            type="date"
            value={draft.fecha}
            onInput={(e) => set('fecha', e.currentTarget.value)}
          />,
        )}
        {field(
          'hora',
          'Hora',
          <input
            {...described('hora')}
            type="time"
            step={60}
            value={draft.hora}
            onInput={(e) => set('hora', e.currentTarget.value)}
          />,
        )}
        {field(
          'id_mesa',
          'Mesa',
          <select
            {...described('id_mesa')}
            value={draft.id_mesa}
            onChange={(e) => set('id_mesa', e.currentTarget.value)}
          >
            <option value="">Sin mesa (se asigna al llegar)</option>
            {mesas
              .filter((m) => m.activo || String(m.id_mesa) === draft.id_mesa)
              .map((m) => (
                <option key={m.id_mesa} value={String(m.id_mesa)}>
                  {mesaLabel(m)}
                </option>
              ))}
          </select>,
          true,
        )}
        {field(
          'observacion',
          'Notas',
          <textarea
            {...described('observacion')}
            rows={2}
            value={draft.observacion}
            maxLength={OBSERVACION_MAX}
            placeholder="cumpleaños, silla para bebé…"
            onInput={(e) => set('observacion', e.currentTarget.value)}
          />,
          true,
        )}
        <div class="wide">
          <ErrorBanner error={error} onClose={() => setError(null)} />
          <div class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Guardando…' : submitLabel}
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={onClose}>
              Volver
            </button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}

function SeatDialog({
  reserva,
  mesas,
  onClose,
  onSeat,
  onRefused,
}: {
  reserva: Reserva;
  mesas: Mesa[];
  onClose: () => void;
  onSeat: (idMesa: number) => Promise<void>;
  onRefused: (err: unknown) => void;
}) {
  const uid = useId();
  const [mesa, setMesa] = useState(reserva.id_mesa === null ? '' : String(reserva.id_mesa));
  const [missing, setMissing] = useState(false);
  const { busy, error, setError, run } = useSubmit();
  const title = `Sentar a ${reserva.nombre}`;

  const submit = (e: Event) => {
    e.preventDefault();
    if (!mesa) {
      setMissing(true);
      return;
    }
    void run(() => onSeat(Number(mesa)), onRefused);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form aria-label={title} onSubmit={submit} noValidate>
        <p>
          {reserva.personas} {reserva.personas === 1 ? 'persona' : 'personas'}, reserva de las{' '}
          {reserva.hora}. Se abre su comanda en la mesa y se muestra en la Sala.
        </p>
        <div class="field">
          <label for={`${uid}-mesa`}>Mesa</label>
          <select
            id={`${uid}-mesa`}
            value={mesa}
            autoFocus
            aria-invalid={missing ? 'true' : undefined}
            aria-describedby={missing ? `${uid}-error` : undefined}
            onChange={(e) => {
              setMesa(e.currentTarget.value);
              setMissing(false);
            }}
          >
            <option value="">— elija la mesa —</option>
            {mesas
              .filter((m) => m.activo || String(m.id_mesa) === mesa)
              .map((m) => (
                <option key={m.id_mesa} value={String(m.id_mesa)}>
                  {mesaLabel(m)}
                  {m.abiertas > 0 ? ` (${m.abiertas} abierta${m.abiertas === 1 ? '' : 's'})` : ''}
                </option>
              ))}
          </select>
          {missing && (
            <span id={`${uid}-error`} class="field-error">
              Elija la mesa donde se sienta el grupo
            </span>
          )}
        </div>
        <ErrorBanner error={error} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Abriendo comanda…' : 'Sentar y abrir comanda'}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={onClose}>
            Volver
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function CancelDialog({
  reserva,
  onClose,
  onCancel,
  onRefused,
}: {
  reserva: Reserva;
  onClose: () => void;
  onCancel: (motivo: string) => Promise<void>;
  onRefused: (err: unknown) => void;
}) {
  const uid = useId();
  const [motivo, setMotivo] = useState('');
  const [missing, setMissing] = useState(false);
  const { busy, error, setError, run } = useSubmit();
  const title = `Cancelar la reserva de ${reserva.nombre}`;

  const submit = (e: Event) => {
    e.preventDefault();
    if (!motivo.trim()) {
      setMissing(true);
      return;
    }
    void run(() => onCancel(motivo.trim()), onRefused);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form aria-label={title} onSubmit={submit} noValidate>
        <p>
          {reserva.hora}, {reserva.personas} {reserva.personas === 1 ? 'persona' : 'personas'}. Una
          reserva cancelada no se puede volver a abrir.
        </p>
        <div class="field">
          <label for={`${uid}-motivo`}>Motivo</label>
          <textarea
            id={`${uid}-motivo`}
            rows={2}
            value={motivo}
            autoFocus
            maxLength={OBSERVACION_MAX}
            placeholder="el cliente llamó para cancelar"
            aria-invalid={missing ? 'true' : undefined}
            aria-describedby={missing ? `${uid}-error` : undefined}
            onInput={(e) => {
              setMotivo(e.currentTarget.value);
              setMissing(false);
            }}
          />
          {missing && (
            <span id={`${uid}-error`} class="field-error">
              Indique el motivo de la cancelación
            </span>
          )}
        </div>
        <ErrorBanner error={error} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" class="danger" disabled={busy}>
            {busy ? 'Cancelando…' : 'Cancelar reserva'}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={onClose}>
            Volver
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function NoShowDialog({
  reserva,
  onClose,
  onConfirm,
  onRefused,
}: {
  reserva: Reserva;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  onRefused: (err: unknown) => void;
}) {
  const { busy, error, setError, run } = useSubmit();
  const title = `${reserva.nombre} no vino`;
  return (
    <Dialog title={title} onClose={onClose}>
      <p>
        La reserva de las {reserva.hora} ({reserva.personas}{' '}
        {reserva.personas === 1 ? 'persona' : 'personas'}) queda como «no vino»
        {reserva.id_mesa !== null && ' y su mesa queda libre'}. No se puede deshacer.
      </p>
      <ErrorBanner error={error} onClose={() => setError(null)} />
      <div class="actions">
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => void run(onConfirm, onRefused)}
        >
          {busy ? 'Guardando…' : 'Marcar que no vino'}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onClose}>
          Volver
        </button>
      </div>
    </Dialog>
  );
}
