import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, isAbort, ok, type Schemas } from '../api';
import { ErrorBanner, Notice } from '../components';
import { addDays, dayLabel, todayIn } from '../dates';
import { useSession } from '../session';
import { formData, xhrFetch, type Progress } from '../upload';
import {
  accountsForAll,
  dayRows,
  driverLabel,
  formatBytes,
  formatMinutes,
  intervalText,
  percent,
  personName,
  queryProblem,
  totals,
  whyNotSelectable,
} from './attendance-format';

type Driver = Schemas['DriverDto'];
type ImportSummary = Schemas['ImportSummaryDto'];
type AsistenciaGet = Schemas['AsistenciaGetDto'];
type Persona = Schemas['ReportAsistenciaDto']['personas'][number];

/**
 * Asistencia (docs/device-drivers.md, docs/rpc.md): import a clock's export with a driver, with
 * progress and the import summary; a person's daily summary over a date range.
 */
export function Attendance() {
  const { can } = useSession();
  return (
    <div class="grid">
      {can('asistencia:import') ? (
        <ImportPanel />
      ) : (
        <section class="panel">
          <h2 id="asistencia-importar">Importar marcaciones</h2>
          <Notice>Su rol no puede importar marcaciones (permiso asistencia:import).</Notice>
        </section>
      )}
      {can('rpc:call') ? (
        <DailyPanel />
      ) : (
        <section class="panel">
          <h2 id="asistencia-resumen">Resumen diario</h2>
          <Notice>Su rol no puede consultar la asistencia (permiso rpc:call).</Notice>
        </section>
      )}
    </div>
  );
}

function ImportPanel() {
  const { api } = useSession();
  const [drivers, setDrivers] = useState<Driver[] | null>(null);
  const [driver, setDriver] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [error, setError] = useState<unknown>(null);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/device-drivers', { signal: controller.signal }))
      .then((list) => {
        setDrivers(list);
        setDriver(
          (current) => current || list.find((d) => whyNotSelectable(d) === null)?.name || '',
        );
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api]);

  // leaving the screen stops an upload under way
  useEffect(() => () => controllerRef.current?.abort(), []);

  const selected = drivers?.find((d) => d.name === driver) ?? null;
  const unusable = (drivers ?? []).filter((d) => whyNotSelectable(d) !== null);

  const start = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (!driver) {
      setError(new Error('Elija un driver que pueda importar archivos'));
      return;
    }
    if (!file) {
      setError(new Error('Elija el archivo exportado por el reloj'));
      return;
    }
    const controller = new AbortController();
    controllerRef.current = controller;
    setBusy(true);
    setSummary(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      // the one client, sent by XMLHttpRequest for its upload progress (upload.ts); the
      // driver before the file: the service reads the parts in order
      setSummary(
        await ok(
          api.POST('/api/v1/asistencia/import', {
            body: { driver, file },
            bodySerializer: formData,
            fetch: xhrFetch(setProgress),
            signal: controller.signal,
          }),
        ),
      );
    } catch (err) {
      setError(isAbort(err) ? new Error('Importación cancelada') : err);
    } finally {
      controllerRef.current = null;
      setBusy(false);
      setProgress(null);
    }
  };

  const pct = progress ? percent(progress.loaded, progress.total) : null;
  const sent = progress !== null && progress.total > 0 && progress.loaded >= progress.total;

  return (
    <section class="panel">
      <h2 id="asistencia-importar">Importar marcaciones</h2>
      <form class="toolbar import-form" onSubmit={(e) => void start(e)}>
        <label class="driver">
          Driver
          <select
            aria-label="Driver"
            value={driver}
            disabled={!drivers || busy}
            onChange={(e) => setDriver(e.currentTarget.value)}
          >
            {!drivers && <option value="">Cargando…</option>}
            {drivers && drivers.every((d) => whyNotSelectable(d) !== null) && (
              <option value="">— ninguno puede importar —</option>
            )}
            {(drivers ?? []).map((d) => {
              const why = whyNotSelectable(d);
              return (
                <option key={d.name} value={d.name} disabled={why !== null}>
                  {driverLabel(d)}
                  {why ? ` (${why})` : ''}
                </option>
              );
            })}
          </select>
        </label>
        <label>
          Archivo
          <input
            type="file"
            aria-label="Archivo"
            disabled={busy}
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        </label>
        <button type="submit" disabled={busy || !driver || !file}>
          {busy ? 'Importando…' : 'Importar'}
        </button>
        {busy && (
          <button type="button" class="secondary" onClick={() => controllerRef.current?.abort()}>
            Cancelar
          </button>
        )}
      </form>

      {selected && selected.warnings.length > 0 && (
        <ul class="muted">
          {selected.warnings.map((w) => (
            <li key={w.path + w.message}>
              Aviso {w.path}: {w.message}
            </li>
          ))}
        </ul>
      )}
      {unusable.length > 0 && (
        <details class="block">
          <summary class="muted">
            {unusable.length === 1
              ? '1 driver no puede importar archivos'
              : `${unusable.length} drivers no pueden importar archivos`}
          </summary>
          <ul class="muted">
            {unusable.map((d) => (
              <li key={d.name}>
                <strong>{driverLabel(d)}</strong>: {whyNotSelectable(d)}
                {d.warnings.length > 0 && (
                  <ul>
                    {d.warnings.map((w) => (
                      <li key={w.path + w.message}>
                        {w.path}: {w.message}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}

      {progress && (
        <div role="status">
          <p>
            {sent
              ? 'Envío completo: el servicio está importando las marcaciones…'
              : `Subiendo ${file?.name ?? ''}: ${pct ?? 0} %` +
                (progress.total > 0
                  ? ` (${formatBytes(progress.loaded)} de ${formatBytes(progress.total)})`
                  : '')}
          </p>
          {sent || pct === null ? (
            <progress aria-label="Progreso de la importación" />
          ) : (
            <progress aria-label="Progreso de la importación" max={100} value={pct} />
          )}
        </div>
      )}

      <ErrorBanner error={error} onClose={() => setError(null)} />
      {error instanceof ApiError && <ErrorDetail error={error} />}
      {summary && <SummaryView summary={summary} />}
    </section>
  );
}

/** A CSV read with the wrong driver: the message names the missing columns, this the file's. */
function ErrorDetail({ error }: { error: ApiError }) {
  const header = (error.detail as { header?: unknown } | undefined)?.header;
  if (error.code !== 'EXPORT_HEADER_MISMATCH' || !Array.isArray(header)) return null;
  const names = header.filter((h): h is string => typeof h === 'string');
  return (
    <p class="muted">
      Columnas del archivo: {names.join(', ') || '(ninguna)'}. Elija el driver que corresponde a
      esta exportación.
    </p>
  );
}

function SummaryView({ summary }: { summary: ImportSummary }) {
  const figures: [string, number][] = [
    ['Líneas leídas', summary.read],
    ['Marcaciones válidas', summary.punches],
    ['Insertadas', summary.inserted],
    ['Duplicadas (ya estaban)', summary.duplicates],
    ['De documentos desconocidos (no guardadas)', summary.unknownDocumentPunches],
    ['Líneas con error', summary.badLineCount],
    ['Días recalculados', summary.daysRecalculated],
  ];
  const badLines = summary.badLines ?? [];
  const unknown = summary.unknownDocuments ?? [];
  return (
    <div class="block">
      <h3 id="asistencia-resultado">
        Resultado: {summary.origen} con {summary.driver}
      </h3>
      <Notice>
        {summary.inserted} {summary.inserted === 1 ? 'marcación nueva' : 'marcaciones nuevas'} de{' '}
        {summary.read} {summary.read === 1 ? 'línea' : 'líneas'}
        {summary.badLineCount > 0 &&
          `; ${summary.badLineCount} ${summary.badLineCount === 1 ? 'línea con error' : 'líneas con error'}`}
        {unknown.length > 0 &&
          `; ${unknown.length} ${unknown.length === 1 ? 'documento desconocido' : 'documentos desconocidos'}`}
        .
      </Notice>
      <table class="table">
        <caption class="muted">Resumen de la importación</caption>
        <tbody>
          {figures.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td class="num">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!accountsForAll(summary) && (
        <p class="muted">Las cifras no suman las líneas leídas: revise el registro del servicio.</p>
      )}

      {badLines.length > 0 && (
        <>
          <h4>Líneas con error</h4>
          {summary.badLineCount > badLines.length && (
            <p class="muted">
              Se muestran las primeras {badLines.length} de {summary.badLineCount}.
            </p>
          )}
          <table class="table">
            <thead>
              <tr>
                <th scope="col" class="num">
                  Línea
                </th>
                <th scope="col">Motivo</th>
              </tr>
            </thead>
            <tbody>
              {badLines.map((b, i) => (
                <tr key={`${b.line}-${i}`}>
                  <td class="num">{b.line}</td>
                  <td>{b.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      {unknown.length > 0 && (
        <>
          <h4>Documentos desconocidos</h4>
          <p class="muted">
            Ningún usuario tiene estos documentos: {summary.unknownDocumentPunches}{' '}
            {summary.unknownDocumentPunches === 1
              ? 'marcación no se guardó'
              : 'marcaciones no se guardaron'}
            . Registre a la persona (usuarios.documento) e importe el archivo otra vez.
          </p>
          <ul>
            {unknown.map((doc) => (
              <li key={doc}>
                <span class="pill">{doc}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * The people with punches in a range (report_asistencia), and the days of the one chosen
 * (asistencia_get): a manager picks a name, never types a document number.
 */
function DailyPanel() {
  const { api, tenant } = useSession();
  const today = todayIn(tenant.timeZone);
  const [desde, setDesde] = useState(addDays(today, -6));
  const [hasta, setHasta] = useState(today);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [report, setReport] = useState<{
    desde: string;
    hasta: string;
    personas: Persona[];
  } | null>(null);
  const [days, setDays] = useState<{ persona: Persona; data: AsistenciaGet } | null>(null);

  const daysOf = async (persona: Persona, range: { desde: string; hasta: string }) => {
    const data = await ok(
      api.POST('/api/v1/rpc/asistencia_get', { body: { doc: persona.documento, ...range } }),
    );
    setDays({ persona, data });
  };

  const consult = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    const problem = queryProblem(desde, hasta);
    setError(problem ? new Error(problem) : null);
    if (problem) return;
    setBusy(true);
    try {
      const range = { desde, hasta };
      const answer = await ok(api.POST('/api/v1/rpc/report_asistencia', { body: range }));
      setReport({ ...range, personas: answer.personas });
      // the person shown stays, with the days of the new range
      const still = answer.personas.find((p) => p.id_usuario === days?.persona.id_usuario);
      if (still) await daysOf(still, range);
      else setDays(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const choose = async (persona: Persona) => {
    if (busy || !report) return;
    setBusy(true);
    setError(null);
    try {
      await daysOf(persona, report);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel">
      <h2 id="asistencia-resumen">Resumen diario</h2>
      <form class="toolbar" onSubmit={(e) => void consult(e)} noValidate>
        <label>
          Desde
          <input type="date" value={desde} onInput={(e) => setDesde(e.currentTarget.value)} />
        </label>
        <label>
          Hasta
          <input type="date" value={hasta} onInput={(e) => setHasta(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Consultando…' : 'Consultar'}
        </button>
      </form>
      <ErrorBanner error={error} onClose={() => setError(null)} />
      {report && (
        <PeopleList
          {...report}
          chosen={days?.persona.id_usuario ?? null}
          busy={busy}
          onChoose={(p) => void choose(p)}
        />
      )}
      {report && days && <DailyView desde={report.desde} hasta={report.hasta} {...days} />}
    </section>
  );
}

function PeopleList({
  desde,
  hasta,
  personas,
  chosen,
  busy,
  onChoose,
}: {
  desde: string;
  hasta: string;
  personas: Persona[];
  chosen: number | null;
  busy: boolean;
  onChoose: (persona: Persona) => void;
}) {
  if (personas.length === 0)
    return (
      <p class="muted">
        Nadie tiene marcaciones del {dayLabel(desde)} al {dayLabel(hasta)}.
      </p>
    );
  return (
    <table class="table people">
      <caption class="muted">
        Personas con marcaciones del {dayLabel(desde)} al {dayLabel(hasta)}
      </caption>
      <thead>
        <tr>
          <th scope="col">Persona</th>
          <th scope="col">Documento</th>
          <th scope="col" class="num">
            Días
          </th>
          <th scope="col" class="num">
            Horas
          </th>
          <th scope="col" class="num">
            Incompletos
          </th>
          <th scope="col">
            <span class="sr-only">Detalle</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {personas.map((p) => (
          <tr key={p.id_usuario} class={p.id_usuario === chosen ? 'chosen' : undefined}>
            <th scope="row">{personName(p)}</th>
            <td>{p.documento}</td>
            <td class="num">{p.dias_trabajados}</td>
            <td class="num">{formatMinutes(p.minutos)}</td>
            <td class="num">
              {p.dias_incompletos > 0 ? (
                <span class="pill incompleto">{p.dias_incompletos}</span>
              ) : (
                0
              )}
            </td>
            <td class="num">
              <button
                type="button"
                class="secondary"
                disabled={busy}
                aria-pressed={p.id_usuario === chosen}
                aria-label={`Ver días de ${personName(p)}`}
                onClick={() => onChoose(p)}
              >
                Ver días
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DailyView({
  persona,
  desde,
  hasta,
  data,
}: {
  persona: Persona;
  desde: string;
  hasta: string;
  data: AsistenciaGet;
}) {
  if (!data.usuario) {
    return <Notice>Ningún usuario tiene el documento {persona.documento}.</Notice>;
  }
  const person = [data.usuario.nombre, data.usuario.apellido].filter(Boolean).join(' ');
  const days = dayRows(desde, hasta, data.resumen, data.intervalos);
  const sum = totals(data.resumen);
  return (
    <div class="block">
      <h3>
        {person} · {data.usuario.documento}
      </h3>
      <p class="muted">
        Del {dayLabel(desde)} al {dayLabel(hasta)}: {sum.diasTrabajados}{' '}
        {sum.diasTrabajados === 1 ? 'día trabajado' : 'días trabajados'},{' '}
        {formatMinutes(sum.minutos)}
        {sum.diasIncompletos > 0 &&
          `, ${sum.diasIncompletos} ${sum.diasIncompletos === 1 ? 'día incompleto' : 'días incompletos'}`}
        .
      </p>
      {days.length === 0 ? (
        <p class="muted">Sin marcaciones en esas fechas.</p>
      ) : (
        <table class="table">
          <caption class="muted">
            Días de trabajo (una marcación antes de la hora de corte cuenta para el día anterior)
          </caption>
          <thead>
            <tr>
              <th scope="col">Día</th>
              <th scope="col">Intervalos</th>
              <th scope="col" class="num">
                Marcaciones
              </th>
              <th scope="col" class="num">
                Horas
              </th>
              <th scope="col">Estado</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.fecha}>
                <th scope="row">{dayLabel(day.fecha)}</th>
                <td>
                  {day.intervalos.length === 0 ? (
                    <span class="muted">—</span>
                  ) : (
                    day.intervalos.map((i) => <div key={i.id_intervalo}>{intervalText(i)}</div>)
                  )}
                </td>
                <td class="num">{day.resumen ? day.resumen.marcas : 0}</td>
                <td class="num">{day.resumen ? formatMinutes(day.resumen.minutos) : '—'}</td>
                <td>
                  {!day.resumen ? (
                    <span class="muted">sin marcaciones</span>
                  ) : day.resumen.incompleto ? (
                    <span class="pill incompleto">incompleto</span>
                  ) : (
                    <span class="pill completo">completo</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>
                {sum.diasTrabajados} {sum.diasTrabajados === 1 ? 'día' : 'días'}
              </td>
              <td class="num">{data.resumen.reduce((n, r) => n + r.marcas, 0)}</td>
              <td class="num">{formatMinutes(sum.minutos)}</td>
              <td>{sum.diasIncompletos > 0 ? `${sum.diasIncompletos} incompletos` : ''}</td>
            </tr>
          </tfoot>
        </table>
      )}
      {data.marcas.length > 0 && (
        <details>
          <summary>Marcaciones registradas ({data.marcas.length})</summary>
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Día de trabajo</th>
                <th scope="col">Fecha</th>
                <th scope="col">Hora</th>
                <th scope="col">Modo</th>
                <th scope="col">Origen</th>
              </tr>
            </thead>
            <tbody>
              {data.marcas.map((m) => (
                <tr key={m.id_raw}>
                  <td>{dayLabel(m.fecha_trabajo)}</td>
                  <td>{m.fecha}</td>
                  <td>{m.hora}</td>
                  <td>{m.modo ?? <span class="muted">sin modo</span>}</td>
                  <td>{m.origen ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
