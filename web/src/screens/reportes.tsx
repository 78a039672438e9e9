import { useEffect, useState } from 'preact/hooks';
import { isAbort, ok } from '../api';
import { todayIn } from '../dates';
import { plural, soles } from '../format';
import { useSession } from '../session';
import {
  agrupacionTiempo,
  archivoCsv,
  presetDe,
  PRESETS,
  problemaDeRango,
  rangoDe,
  TITULO_TIEMPO,
  topPorVentaBruta,
  type Preset,
  type Rango,
  type ReporteVentas,
} from './reportes-rules';
import type { Carga } from './reportes-card';
import {
  BarrasVentasCard,
  FoodCostCard,
  SemanaCard,
  TiempoCard,
  type Agrupar,
} from './reportes-ventas';
import { AsistenciaCard, GastosCard } from './reportes-gastos';

/**
 * One report of the range: loaded again when the range changes (or the user, "Cambiar de
 * usuario"), dropped (and its request aborted) when it changes before the answer.
 */
function useReporte<T>(load: ((signal: AbortSignal) => Promise<T>) | null, key: string): Carga<T> {
  const { api } = useSession();
  const [state, setState] = useState<{ key: string } & Carga<T>>({
    key: '',
    data: null,
    error: null,
  });
  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    load(controller.signal)
      .then((data) => setState({ key, data, error: null }))
      .catch((error: unknown) => !isAbort(error) && setState({ key, data: null, error }));
    return () => controller.abort();
  }, [key, api]);
  return state.key === key ? state : { data: null, error: null };
}

/**
 * The JSON answer of a report route: the document gives each both a JSON and a CSV answer, so
 * the client types its body as either; without `Accept: text/csv` it is the JSON one.
 */
function json<T extends object>(data: T | string): T {
  if (typeof data === 'string') throw new Error('El servicio respondió un CSV en lugar de JSON');
  return data;
}

/** Saves a file the page received (a CSV with its BOM, byte for byte) under `nombre`. */
function guardar(blob: Blob, nombre: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = nombre;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has started from the URL; keep it a little for slow disks
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Reportes (docs/reportes.md): a period (presets in the tenant's calendar or two dates) and the
 * charts of its sales, expenses and hours worked, each with its figures as a table and a CSV of
 * the same route. Every figure is the API's.
 */
export function Reportes() {
  const { api, tenant } = useSession();
  const today = todayIn(tenant.timeZone);
  const [rango, setRango] = useState<Rango>(() => rangoDe('mes', today));
  const [elegido, setElegido] = useState<Preset | null>('mes');
  const [fechas, setFechas] = useState<Rango>(rango);
  const problema = problemaDeRango(fechas);
  const preset = presetDe(rango, today, elegido);
  const cobros = Boolean(tenant.features?.cobros);
  const inventario = Boolean(tenant.features?.inventario);
  const key = `${rango.desde}|${rango.hasta}`;
  const tiempo = agrupacionTiempo(rango);

  const ventas = (agrupar: Agrupar) => (signal: AbortSignal) =>
    ok(
      api.GET('/api/v1/reportes/ventas', {
        params: { query: { ...rango, agrupar } },
        signal,
      }),
    ).then(json);

  const ventasCsv = (agrupar: Agrupar) => async () =>
    guardar(
      await ok(
        api.GET('/api/v1/reportes/ventas', {
          params: { query: { ...rango, agrupar } },
          headers: { Accept: 'text/csv' },
          parseAs: 'blob',
        }),
      ),
      archivoCsv(`ventas-${agrupar}`, rango),
    );

  const porTiempo = useReporte(ventas(tiempo), `${key}|${tiempo}`);
  const porSemana = useReporte(ventas('dia_semana_hora'), `${key}|dia_semana_hora`);
  const porProducto = useReporte(ventas('producto'), `${key}|producto`);
  const porMozo = useReporte(ventas('mozo'), `${key}|mozo`);
  const porMetodo = useReporte(cobros ? ventas('metodo') : null, `${key}|metodo`);
  const porMes = useReporte(inventario ? ventas('mes') : null, `${key}|mes`);
  const gastos = useReporte(
    (signal) =>
      ok(api.GET('/api/v1/reportes/gastos', { params: { query: rango }, signal })).then(json),
    `${key}|gastos`,
  );
  const asistencia = useReporte(
    (signal) =>
      ok(api.GET('/api/v1/reportes/asistencia', { params: { query: rango }, signal })).then(json),
    `${key}|asistencia`,
  );

  const gastosCsv = async () =>
    guardar(
      await ok(
        api.GET('/api/v1/reportes/gastos', {
          params: { query: rango },
          headers: { Accept: 'text/csv' },
          parseAs: 'blob',
        }),
      ),
      archivoCsv('gastos', rango),
    );
  const asistenciaCsv = async () =>
    guardar(
      await ok(
        api.GET('/api/v1/reportes/asistencia', {
          params: { query: rango },
          headers: { Accept: 'text/csv' },
          parseAs: 'blob',
        }),
      ),
      archivoCsv('asistencia', rango),
    );

  const elegir = (next: Rango) => {
    setRango(next);
    setFechas(next);
  };

  return (
    <div class="reportes">
      <header class="rep-head">
        <h2>Reportes</h2>
        <div class="segmented" role="group" aria-label="Periodo">
          {PRESETS.map((p) => (
            <button
              key={p.preset}
              type="button"
              class={p.preset === preset ? 'seg active' : 'seg'}
              aria-pressed={p.preset === preset}
              onClick={() => {
                setElegido(p.preset);
                elegir(rangoDe(p.preset, today));
              }}
            >
              {p.label}
            </button>
          ))}
        </div>
        <form
          class="rep-fechas"
          onSubmit={(e) => {
            e.preventDefault();
            if (!problema) setRango(fechas);
          }}
        >
          <label>
            Desde
            <input
              type="date"
              value={fechas.desde}
              max={today}
              onChange={(e) => setFechas({ ...fechas, desde: e.currentTarget.value })}
            />
          </label>
          <label>
            Hasta
            <input
              type="date"
              value={fechas.hasta}
              onChange={(e) => setFechas({ ...fechas, hasta: e.currentTarget.value })}
            />
          </label>
          <button
            type="submit"
            class="secondary"
            disabled={
              problema !== null || (fechas.desde === rango.desde && fechas.hasta === rango.hasta)
            }
          >
            Ver
          </button>
        </form>
      </header>
      {problema && <p class="field-error">{problema}</p>}

      <Resumen carga={porTiempo} />

      <div class="rep-grid">
        <TiempoCard
          carga={porTiempo}
          agrupar={tiempo}
          onCsv={ventasCsv(tiempo)}
          titulo={TITULO_TIEMPO[tiempo]}
        />
        <SemanaCard carga={porSemana} onCsv={ventasCsv('dia_semana_hora')} />
        <BarrasVentasCard
          id="productos"
          titulo="Productos más vendidos"
          nota="Los 10 de mayor venta bruta"
          columna="Producto"
          carga={porProducto}
          filas={(r) => topPorVentaBruta(r.filas)}
          onCsv={ventasCsv('producto')}
        />
        {/* the waiters and the methods, short lists, share the column beside the products */}
        <div class="rep-stack">
          <BarrasVentasCard
            id="mozos"
            titulo="Ventas por mozo"
            columna="Mozo"
            carga={porMozo}
            filas={(r) => r.filas.filter((f) => f.comandas > 0)}
            onCsv={ventasCsv('mozo')}
          />
          {cobros && (
            <BarrasVentasCard
              id="metodos"
              titulo="Ventas por método de pago"
              nota="Lo cobrado con cada método, sin propinas"
              columna="Método"
              carga={porMetodo}
              filas={(r) => r.filas.filter((f) => f.comandas > 0)}
              onCsv={ventasCsv('metodo')}
            />
          )}
        </div>
        {inventario && <FoodCostCard carga={porMes} onCsv={ventasCsv('mes')} />}
        <GastosCard carga={gastos} onCsv={gastosCsv} />
        {/* the third of a row of its own with the food cost: the whole width */}
        <AsistenciaCard carga={asistencia} onCsv={asistenciaCsv} wide={inventario} />
      </div>
    </div>
  );
}

/** The period's figures above the charts: the totals of the sales report. */
function Resumen({ carga }: { carga: Carga<ReporteVentas> }) {
  const r = carga.data;
  if (!r) return null;
  const t = r.totales;
  return (
    <p class="figures rep-figures" role="status" aria-label="Totales del periodo">
      <span>
        <strong>{plural(t.comandas, 'comanda', 'comandas')}</strong>
      </span>
      <span>
        Venta bruta <strong>{soles(t.venta_bruta)}</strong>
      </span>
      <span>
        Descuentos <strong>{soles(t.descuentos)}</strong>
      </span>
      <span>
        Venta neta <strong>{soles(t.venta_neta)}</strong>
      </span>
      <span>
        Ticket promedio{' '}
        <strong>{t.ticket_promedio === null ? '—' : soles(t.ticket_promedio)}</strong>
      </span>
    </p>
  );
}
