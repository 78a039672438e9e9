import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { answer, ApiError, isAbort, newKey, ok } from '../api';
import { Dialog, ErrorBanner, Notice, Pager } from '../components';
import { todayIn } from '../dates';
import { plural, soles, when } from '../format';
import { formatCentimos } from '../money';
import { useSession } from '../session';
import {
  cantidadLabel,
  cantidadSigned,
  conteoLineas,
  conteoPatch,
  contadosOf,
  costoUnitario,
  documentoLabel,
  enAlerta,
  ESTADOS_CONTEO,
  estadoConteoLabel,
  filtrarSaldos,
  mensajeError,
  normalize,
  parseCantidad,
  periodoLabel,
  periodoQuery,
  porcentaje,
  PRESETS,
  tipoHint,
  tipoLabel,
  TIPOS,
  unidadLabel,
  valorTotal,
  type Consumo,
  type Contados,
  type Conteo,
  type ConteoResumen,
  type EstadoConteo,
  type Material,
  type Movimiento,
  type Preset,
  type Saldo,
  type Tipo,
} from './inventario-rules';

/** Movements per page of a material's ledger. */
const MOVIMIENTOS_PAGE = 20;
/** Count sheets per page of the list. */
const CONTEOS_PAGE = 8;

type Section = 'existencias' | 'conteos' | 'consumo';

const SECTIONS: { id: Section; label: string }[] = [
  { id: 'existencias', label: 'Existencias' },
  { id: 'conteos', label: 'Conteos' },
  { id: 'consumo', label: 'Consumo y food cost' },
];

/**
 * One Idempotency-Key per intended change: the same key while the request is the same (a retry
 * of the same press gets the first answer), a new one as soon as what is sent changes.
 */
function useKeyFor(): (request: unknown) => string {
  const last = useRef<{ request: string; key: string } | null>(null);
  return (request) => {
    const text = JSON.stringify(request ?? null);
    if (last.current?.request !== text) last.current = { request: text, key: newKey() };
    return last.current.key;
  };
}

/**
 * Inventario (docs/inventario.md): the stock of each raw material at its moving-average cost
 * with its alerts, a material's ledger, waste, count sheets (a draft shows the API's
 * differences before it is applied) and the consumption report with the food cost. Reads need
 * inventario:read; waste inventario:waste (the kitchen, who reads no stock, gets the waste form
 * alone); counts inventario:write, and a sheet's buttons are exactly its `acciones`.
 */
export function Inventario() {
  const { can } = useSession();
  if (!can('inventario:read')) return <MermaSolo />;
  return <InventarioCompleto />;
}

function InventarioCompleto() {
  const { api, can, tenant } = useSession();
  const [section, setSection] = useState<Section>('existencias');
  const [saldos, setSaldos] = useState<Saldo[] | null>(null);
  const [materiales, setMateriales] = useState<Material[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [merma, setMerma] = useState<{ id: number | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** Bumped to read the balances (and what depends on them) again. */
  const [round, setRound] = useState(0);
  const canWaste = can('inventario:waste');

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/inventario', { signal: controller.signal }))
      .then(setSaldos)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, round]);

  useEffect(() => {
    if (!canWaste) return undefined;
    const controller = new AbortController();
    ok(api.GET('/api/v1/inventario/materiales', { signal: controller.signal }))
      .then(setMateriales)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, canWaste]);

  const refresh = () => setRound((n) => n + 1);
  const material = saldos?.find((s) => s.id_mat_prima === selected) ?? null;

  return (
    <div class="inventario">
      <header class="inv-head">
        <h2>Inventario</h2>
        <div class="segmented" role="group" aria-label="Secciones de inventario">
          {SECTIONS.map((s) => (
            <button
              key={s.id}
              type="button"
              class={s.id === section ? 'seg active' : 'seg'}
              aria-pressed={s.id === section}
              onClick={() => {
                setSection(s.id);
                setNotice(null);
              }}
            >
              {s.label}
            </button>
          ))}
        </div>
        {canWaste && (
          <button
            type="button"
            class="inv-merma"
            onClick={() => setMerma({ id: section === 'existencias' ? selected : null })}
          >
            Registrar merma
          </button>
        )}
      </header>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />

      {section === 'existencias' &&
        (material ? (
          <Movimientos
            key={material.id_mat_prima}
            saldo={material}
            round={round}
            onBack={() => setSelected(null)}
          />
        ) : (
          <Existencias saldos={saldos} onSelect={setSelected} onRefresh={refresh} />
        ))}
      {section === 'conteos' && <Conteos saldos={saldos ?? []} round={round} onApplied={refresh} />}
      {section === 'consumo' && <ConsumoReport round={round} />}

      {merma && (
        <Dialog title="Registrar merma" onClose={() => setMerma(null)}>
          <MermaForm
            materiales={materiales}
            initial={merma.id}
            saldos={saldos}
            onCancel={() => setMerma(null)}
            onDone={(text) => {
              setMerma(null);
              setError(null);
              setNotice(text);
              refresh();
            }}
          />
        </Dialog>
      )}
    </div>
  );
}

/** The balances: a filter by name, the alerts only, each material's figures, the total value. */
function Existencias({
  saldos,
  onSelect,
  onRefresh,
}: {
  saldos: Saldo[] | null;
  onSelect: (id: number) => void;
  onRefresh: () => void;
}) {
  const [texto, setTexto] = useState('');
  const [soloAlertas, setSoloAlertas] = useState(false);
  if (saldos === null) return <p class="muted">Cargando…</p>;
  const shown = filtrarSaldos(saldos, texto, soloAlertas);
  const alertas = saldos.filter(enAlerta).length;
  const filtered = texto.trim() !== '' || soloAlertas;
  return (
    <section class="panel existencias" aria-labelledby="existencias-titulo">
      <div class="inv-section-head">
        <h3 id="existencias-titulo">Existencias</h3>
        <p class="figures inv-figures" role="status">
          <span>
            <strong>{plural(saldos.length, 'material', 'materiales')}</strong>
          </span>
          <span class={alertas > 0 ? 'alertas' : undefined}>
            <strong>{alertas}</strong> {alertas === 1 ? 'con alerta' : 'con alertas'}
          </span>
          <span>
            Valor del inventario{' '}
            <strong data-testid="valor-total">{formatCentimos(valorTotal(saldos))}</strong>
          </span>
        </p>
      </div>
      <div class="toolbar">
        <label class="grow">
          Buscar material
          <input
            type="search"
            value={texto}
            placeholder="Nombre del material"
            onInput={(e) => setTexto(e.currentTarget.value)}
          />
        </label>
        <label class="inline check">
          <input
            type="checkbox"
            checked={soloAlertas}
            onChange={(e) => setSoloAlertas(e.currentTarget.checked)}
          />
          <span>Solo alertas</span>
        </label>
        <button type="button" class="secondary push" onClick={onRefresh}>
          Actualizar
        </button>
      </div>
      <table class="table saldos" aria-label="Existencias">
        <colgroup>
          <col />
          <col class="c-unidad" />
          <col class="c-cantidad" />
          <col class="c-minimo" />
          <col class="c-costo" />
          <col class="c-valor" />
          <col class="c-alertas" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Material</th>
            <th scope="col">Unidad</th>
            <th scope="col" class="num">
              Cantidad
            </th>
            <th scope="col" class="num">
              Mínimo
            </th>
            <th scope="col" class="num">
              Costo prom.
            </th>
            <th scope="col" class="num">
              Valor
            </th>
            <th scope="col">Alertas</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((s) => (
            <tr
              key={s.id_mat_prima}
              aria-label={s.nombre}
              class={[enAlerta(s) ? 'alerta' : '', s.activo ? '' : 'inactivo'].join(' ').trim()}
            >
              <th scope="row" class="material">
                <button
                  type="button"
                  class="link"
                  title={`Ver los movimientos de ${s.nombre}`}
                  onClick={() => onSelect(s.id_mat_prima)}
                >
                  {s.nombre}
                </button>
                {!s.activo && <span class="muted small"> · inactivo</span>}
              </th>
              <td>{unidadLabel(s.unidad)}</td>
              <td class={s.negativo ? 'num negativo' : 'num'}>{cantidadLabel(s.cantidad)}</td>
              <td class="num muted">
                {s.stock_minimo === null ? '—' : cantidadLabel(s.stock_minimo)}
              </td>
              <td class="num">{costoUnitario(s.costo_promedio)}</td>
              <td class="num">{soles(s.valor)}</td>
              <td>
                <Badges saldo={s} />
              </td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={7} class="muted">
                {filtered
                  ? 'Ningún material con estos filtros.'
                  : 'Ningún material registrado todavía.'}
              </td>
            </tr>
          )}
        </tbody>
        {shown.length > 0 && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                {filtered
                  ? `Valor de los ${plural(shown.length, 'material mostrado', 'materiales mostrados')}`
                  : 'Valor del inventario'}
              </th>
              <td class="num">{formatCentimos(valorTotal(shown))}</td>
              <td />
            </tr>
          </tfoot>
        )}
      </table>
      <p class="hint">
        Elija un material para ver sus movimientos. Los valores son los del libro de inventario, a
        costo promedio.
      </p>
    </section>
  );
}

/** The flags of a balance as badges: below zero, below its minimum. */
function Badges({ saldo }: { saldo: Pick<Saldo, 'negativo' | 'bajo_minimo'> }) {
  if (!enAlerta(saldo)) return <span class="muted">—</span>;
  return (
    <span class="badges">
      {saldo.negativo && (
        <span class="badge negativo" title="Se usó más de lo que se registró como comprado">
          Negativo
        </span>
      )}
      {saldo.bajo_minimo && (
        <span class="badge bajo-minimo" title="Por debajo del stock mínimo">
          Bajo mínimo
        </span>
      )}
    </span>
  );
}

interface MovFilters {
  tipo: Tipo | '';
  desde: string;
  hasta: string;
}

const NO_FILTERS: MovFilters = { tipo: '', desde: '', hasta: '' };

/** A material's ledger, newest first, paged, filtered by tipo and dates. */
function Movimientos({
  saldo,
  round,
  onBack,
}: {
  saldo: Saldo;
  round: number;
  onBack: () => void;
}) {
  const { api } = useSession();
  const [filters, setFilters] = useState<MovFilters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  /** The page shown, with the offset it was read at (the pager says what is on screen). */
  const [page, setPage] = useState<{ items: Movimiento[]; total: number; offset: number } | null>(
    null,
  );
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const controller = new AbortController();
    answer(
      api.GET('/api/v1/inventario/movimientos', {
        params: {
          query: {
            id_mat_prima: saldo.id_mat_prima,
            tipo: filters.tipo || undefined,
            desde: filters.desde || undefined,
            hasta: filters.hasta || undefined,
            limit: MOVIMIENTOS_PAGE,
            offset,
          },
        },
        signal: controller.signal,
      }),
    )
      .then(({ data, response }) =>
        setPage({
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
          offset,
        }),
      )
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, saldo.id_mat_prima, filters, offset, round]);

  const set = (change: Partial<MovFilters>) => {
    setOffset(0);
    setFilters({ ...filters, ...change });
  };
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);
  const title = `Movimientos de ${saldo.nombre}`;

  return (
    <section class="panel movimientos-panel" aria-label={title}>
      <div class="mov-head">
        <button type="button" class="secondary small" onClick={onBack}>
          ← Existencias
        </button>
        <h3>{title}</h3>
      </div>
      <dl class="mov-saldo" aria-label={`Saldo de ${saldo.nombre}`}>
        <div>
          <dt>Cantidad</dt>
          <dd class={saldo.negativo ? 'negativo' : undefined}>
            {cantidadLabel(saldo.cantidad, saldo.unidad)}
          </dd>
        </div>
        <div>
          <dt>Costo promedio</dt>
          <dd>
            {costoUnitario(saldo.costo_promedio)} / {unidadLabel(saldo.unidad)}
          </dd>
        </div>
        <div>
          <dt>Valor</dt>
          <dd>{soles(saldo.valor)}</dd>
        </div>
        <div>
          <dt>Mínimo</dt>
          <dd>
            {saldo.stock_minimo === null ? '—' : cantidadLabel(saldo.stock_minimo, saldo.unidad)}
          </dd>
        </div>
        <div>
          <dt>Alertas</dt>
          <dd>
            <Badges saldo={saldo} />
          </dd>
        </div>
      </dl>
      <form
        class="toolbar"
        aria-label="Filtros de movimientos"
        onSubmit={(e) => e.preventDefault()}
      >
        <label>
          Tipo
          <select
            value={filters.tipo}
            onChange={(e) => set({ tipo: e.currentTarget.value as Tipo | '' })}
          >
            <option value="">Todos</option>
            {TIPOS.map((t) => (
              <option key={t.tipo} value={t.tipo}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Desde
          <input
            type="date"
            value={filters.desde}
            onChange={(e) => set({ desde: e.currentTarget.value })}
          />
        </label>
        <label>
          Hasta
          <input
            type="date"
            value={filters.hasta}
            onChange={(e) => set({ hasta: e.currentTarget.value })}
          />
        </label>
        {filtered && (
          <button type="button" class="link" onClick={() => set(NO_FILTERS)}>
            Quitar filtros
          </button>
        )}
      </form>
      <ErrorBanner error={error} onClose={() => setError(null)} />
      {page === null && !error && <p class="muted">Cargando…</p>}
      {page && (
        <>
          <p class="muted" role="status">
            {plural(page.total, 'movimiento', 'movimientos')}
          </p>
          <table class="table movs" aria-label="Movimientos">
            <colgroup>
              <col class="c-fecha" />
              <col />
              <col class="c-cantidad-u" />
              <col class="c-costo" />
              <col class="c-valor" />
              <col class="c-cantidad-u" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Movimiento</th>
                <th scope="col" class="num">
                  Cantidad ({unidadLabel(saldo.unidad)})
                </th>
                <th scope="col" class="num">
                  Costo unit.
                </th>
                <th scope="col" class="num">
                  Valor
                </th>
                <th scope="col" class="num">
                  Saldo ({unidadLabel(saldo.unidad)})
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((m) => (
                <tr key={m.id_movimiento}>
                  <td class="nowrap">{when(m.fec)}</td>
                  <td class="mov-que">
                    <span class={`pill tipo ${m.tipo}`} title={tipoHint(m.tipo)}>
                      {tipoLabel(m.tipo)}
                    </span>{' '}
                    {(m.motivo || m.usuario || documentoLabel(m)) && (
                      <span class="muted small mov-detalle">
                        {[documentoLabel(m), m.motivo, m.usuario].filter(Boolean).join(' · ')}
                      </span>
                    )}
                  </td>
                  <td class={m.cantidad < 0 ? 'num sale' : 'num entra'}>
                    {cantidadSigned(m.cantidad)}
                  </td>
                  <td class="num">{costoUnitario(m.costo_unitario)}</td>
                  <td class="num">{soles(m.valor)}</td>
                  <td class="num">{cantidadLabel(m.saldo_cantidad)}</td>
                </tr>
              ))}
              {page.items.length === 0 && (
                <tr>
                  <td colSpan={6} class="muted">
                    {filtered
                      ? 'Ningún movimiento con estos filtros.'
                      : 'Este material no tiene movimientos todavía.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
          {page.total > MOVIMIENTOS_PAGE && (
            <Pager
              offset={page.offset}
              size={MOVIMIENTOS_PAGE}
              total={page.total}
              onOffset={setOffset}
            />
          )}
        </>
      )}
    </section>
  );
}

/**
 * Waste: the material by its name, how much (in its unidad), why. POST /inventario/mermas with
 * one Idempotency-Key per intended change.
 */
function MermaForm({
  materiales,
  initial,
  saldos,
  onDone,
  onCancel,
}: {
  materiales: Material[];
  initial: number | null;
  /** The balances, when the user reads them: the stock shown beside the material picked. */
  saldos?: Saldo[] | null;
  onDone: (text: string, movimiento: Movimiento) => void;
  onCancel?: () => void;
}) {
  const { api, tenant } = useSession();
  const ids = useId();
  const keyFor = useKeyFor();
  const [idMat, setIdMat] = useState(initial === null ? '' : String(initial));
  const [cantidad, setCantidad] = useState('');
  const [motivo, setMotivo] = useState('');
  const [errors, setErrors] = useState<{ material?: string; cantidad?: string; motivo?: string }>(
    {},
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const elegibles = materiales.filter((m) => m.activo || String(m.id_mat_prima) === idMat);
  const material = materiales.find((m) => String(m.id_mat_prima) === idMat);
  const saldo = saldos?.find((s) => String(s.id_mat_prima) === idMat);

  const submit = (e: Event) => {
    e.preventDefault();
    if (busy) return;
    const value = parseCantidad(cantidad);
    const problems: typeof errors = {};
    if (!material) problems.material = 'Elija el material';
    if (value === null || value === 0)
      problems.cantidad = 'Indique cuánto se perdió (mayor que 0, hasta 4 decimales)';
    if (!motivo.trim()) problems.motivo = 'Indique el motivo';
    setErrors(problems);
    if (!material || value === null || value === 0 || !motivo.trim()) return;
    const body = { id_mat_prima: material.id_mat_prima, cantidad: value, motivo: motivo.trim() };
    setBusy(true);
    setError(null);
    ok(
      api.POST('/api/v1/inventario/mermas', {
        params: { header: { 'Idempotency-Key': keyFor(body) } },
        body,
      }),
    )
      .then((movimiento) => {
        setCantidad('');
        setMotivo('');
        onDone(
          `Merma registrada: ${cantidadLabel(value, material.unidad)} de ${material.nombre} (${body.motivo}).`,
          movimiento,
        );
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <form class="merma-form" aria-label="Registrar merma" onSubmit={submit} noValidate>
      <div class="field wide">
        <label for={`${ids}-material`}>Material</label>
        <select
          id={`${ids}-material`}
          value={idMat}
          autoFocus={initial === null}
          aria-invalid={errors.material ? 'true' : undefined}
          onChange={(e) => {
            setIdMat(e.currentTarget.value);
            setErrors({ ...errors, material: undefined });
          }}
        >
          <option value="">— elija el material —</option>
          {elegibles.map((m) => (
            <option key={m.id_mat_prima} value={String(m.id_mat_prima)}>
              {m.nombre} ({unidadLabel(m.unidad)})
            </option>
          ))}
        </select>
        {errors.material && <span class="field-error">{errors.material}</span>}
        {saldo && (
          <span class="hint">
            En el libro: {cantidadLabel(saldo.cantidad, saldo.unidad)} a{' '}
            {costoUnitario(saldo.costo_promedio)} / {unidadLabel(saldo.unidad)}
          </span>
        )}
      </div>
      <div class="field">
        <label for={`${ids}-cantidad`}>
          Cantidad{material ? ` (${unidadLabel(material.unidad)})` : ''}
        </label>
        <input
          id={`${ids}-cantidad`}
          class="amount"
          inputMode="decimal"
          autoComplete="off"
          autoFocus={initial !== null}
          value={cantidad}
          placeholder="0.5"
          aria-invalid={errors.cantidad ? 'true' : undefined}
          onInput={(e) => {
            setCantidad(e.currentTarget.value);
            setErrors({ ...errors, cantidad: undefined });
          }}
        />
        {errors.cantidad && <span class="field-error">{errors.cantidad}</span>}
      </div>
      <div class="field wide">
        <label for={`${ids}-motivo`}>Motivo</label>
        <input
          id={`${ids}-motivo`}
          value={motivo}
          maxLength={500}
          autoComplete="off"
          placeholder="se rompió la cadena de frío, se quemó…"
          aria-invalid={errors.motivo ? 'true' : undefined}
          onInput={(e) => {
            setMotivo(e.currentTarget.value);
            setErrors({ ...errors, motivo: undefined });
          }}
        />
        {errors.motivo && <span class="field-error">{errors.motivo}</span>}
      </div>
      <div class="wide">
        <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Registrando…' : 'Registrar merma'}
          </button>
          {onCancel && (
            <button type="button" class="secondary" disabled={busy} onClick={onCancel}>
              Cancelar
            </button>
          )}
        </div>
      </div>
    </form>
  );
}

/**
 * The kitchen's screen: it records waste (inventario:waste) but reads no stock, so the waste
 * form alone, and what it recorded since it opened the screen.
 */
function MermaSolo() {
  const { api, tenant } = useSession();
  const [materiales, setMateriales] = useState<Material[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [hechas, setHechas] = useState<Movimiento[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    ok(api.GET('/api/v1/inventario/materiales', { signal: controller.signal }))
      .then(setMateriales)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api]);

  return (
    <div class="inventario merma-solo">
      <section class="panel" aria-labelledby="merma-titulo">
        <h2 id="merma-titulo">Registrar merma</h2>
        <p class="hint">
          Lo que se perdió en cocina (se malogró, se quemó, se cayó), con su motivo: sale del
          inventario a su costo promedio.
        </p>
        {notice && <Notice>{notice}</Notice>}
        <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
        {materiales === null && !error && <p class="muted">Cargando…</p>}
        {materiales && (
          <MermaForm
            key={round}
            materiales={materiales}
            initial={null}
            onDone={(text, movimiento) => {
              setNotice(text);
              setHechas((list) => [movimiento, ...list]);
              // a fresh form for the next one
              setRound((n) => n + 1);
            }}
          />
        )}
      </section>
      {hechas.length > 0 && (
        <section class="panel" aria-labelledby="hechas-titulo">
          <h3 id="hechas-titulo">Registradas ahora</h3>
          <table class="table" aria-label="Mermas registradas">
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Material</th>
                <th scope="col" class="num">
                  Cantidad
                </th>
                <th scope="col">Motivo</th>
              </tr>
            </thead>
            <tbody>
              {hechas.map((m) => (
                <tr key={m.id_movimiento}>
                  <td class="nowrap">{when(m.fec)}</td>
                  <td>{m.material}</td>
                  <td class="num">{cantidadSigned(m.cantidad, m.unidad)}</td>
                  <td>{m.motivo}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

/** The count sheets, the one shown with its lines, and the buttons its `acciones` lists. */
function Conteos({
  saldos,
  round,
  onApplied,
}: {
  saldos: Saldo[];
  round: number;
  /** A count was applied: the balances changed. */
  onApplied: () => void;
}) {
  const { api, can, tenant } = useSession();
  const [estado, setEstado] = useState<EstadoConteo | ''>('');
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState<{
    items: ConteoResumen[];
    total: number;
    offset: number;
  } | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [conteo, setConteo] = useState<Conteo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<'nuevo' | 'editar' | 'aplicar' | 'descartar' | null>(null);
  const [again, setAgain] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    answer(
      api.GET('/api/v1/inventario/conteos', {
        params: { query: { estado: estado || undefined, limit: CONTEOS_PAGE, offset } },
        signal: controller.signal,
      }),
    )
      .then(({ data, response }) => {
        setList({
          items: data,
          total: Number(response.headers.get('X-Total-Count') ?? data.length),
          offset,
        });
        // the latest draft (or the latest sheet) when none is shown yet
        setSelected(
          (current) =>
            current ??
            data.find((c) => c.estado === 'borrador')?.id_conteo ??
            data[0]?.id_conteo ??
            null,
        );
      })
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, estado, offset, round, again]);

  useEffect(() => {
    if (selected === null) return undefined;
    const controller = new AbortController();
    ok(
      api.GET('/api/v1/inventario/conteos/{id}', {
        params: { path: { id: selected } },
        signal: controller.signal,
      }),
    )
      .then(setConteo)
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, selected, round, again]);

  /** After a write: the sheet as the answer has it, the list read again, the user told. */
  const done = (text: string, changed: Conteo) => {
    setOpen(null);
    setError(null);
    setNotice(text);
    setSelected(changed.id_conteo);
    setConteo(changed);
    setAgain((n) => n + 1);
  };

  const shown = conteo && conteo.id_conteo === selected ? conteo : null;

  return (
    <div class="conteos">
      <section class="panel" aria-labelledby="conteos-titulo">
        <div class="inv-section-head">
          <h3 id="conteos-titulo">Conteos</h3>
          <label class="inline">
            <span>Estado</span>
            <select
              value={estado}
              onChange={(e) => {
                setOffset(0);
                setEstado(e.currentTarget.value as EstadoConteo | '');
              }}
            >
              <option value="">Todos</option>
              {ESTADOS_CONTEO.map((e) => (
                <option key={e.estado} value={e.estado}>
                  {e.plural}
                </option>
              ))}
            </select>
          </label>
          {can('inventario:write') && (
            <button type="button" onClick={() => setOpen('nuevo')}>
              Nuevo conteo
            </button>
          )}
        </div>
        {notice && <Notice>{notice}</Notice>}
        <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
        {list === null && !error && <p class="muted">Cargando…</p>}
        {list && list.items.length === 0 && (
          <p class="muted">
            {estado
              ? 'Ningún conteo en este estado.'
              : 'Ningún conteo todavía. Un conteo compara lo que hay en el almacén con el libro y ajusta la diferencia.'}
          </p>
        )}
        {list && list.items.length > 0 && (
          <>
            <table class="table conteos-list" aria-label="Lista de conteos">
              <colgroup>
                <col class="c-num" />
                <col class="c-corte" />
                <col class="c-estado" />
                <col class="c-lineas" />
                <col />
                <col class="c-quien" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Conteo</th>
                  <th scope="col">Corte</th>
                  <th scope="col">Estado</th>
                  <th scope="col" class="num">
                    Materiales
                  </th>
                  <th scope="col">Observación</th>
                  <th scope="col">Creado por</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((c) => (
                  <tr key={c.id_conteo} class={c.id_conteo === selected ? 'chosen' : undefined}>
                    <td>
                      <button
                        type="button"
                        class="link"
                        aria-pressed={c.id_conteo === selected}
                        aria-label={`Ver el conteo N° ${c.id_conteo}`}
                        onClick={() => setSelected(c.id_conteo)}
                      >
                        N° {c.id_conteo}
                      </button>
                    </td>
                    <td class="nowrap">{when(c.fec_corte)}</td>
                    <td>
                      <span class={`pill ${c.estado}`}>{estadoConteoLabel(c.estado)}</span>
                    </td>
                    <td class="num">{c.total_lineas}</td>
                    <td class="ellipsis" title={c.observacion ?? undefined}>
                      {c.observacion ?? '—'}
                    </td>
                    <td class="ellipsis" title={c.creado_por ?? undefined}>
                      {c.creado_por ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.total > CONTEOS_PAGE && (
              <Pager
                offset={list.offset}
                size={CONTEOS_PAGE}
                total={list.total}
                onOffset={setOffset}
              />
            )}
          </>
        )}
      </section>

      {shown && (
        <ConteoSheet
          conteo={shown}
          onEdit={() => setOpen('editar')}
          onApply={() => setOpen('aplicar')}
          onDiscard={() => setOpen('descartar')}
        />
      )}

      {open === 'nuevo' && (
        <ConteoForm
          saldos={saldos}
          onClose={() => setOpen(null)}
          onSaved={(c) =>
            done(`Borrador N° ${c.id_conteo} creado: revise las diferencias antes de aplicarlo.`, c)
          }
        />
      )}
      {open === 'editar' && shown && (
        <ConteoForm
          saldos={saldos}
          conteo={shown}
          onClose={() => setOpen(null)}
          onSaved={(c) => done(`Conteo N° ${c.id_conteo} modificado.`, c)}
          onRefused={(err) => {
            setOpen(null);
            setError(err);
            setAgain((n) => n + 1);
          }}
        />
      )}
      {open === 'aplicar' && shown && (
        <ConfirmConteo
          conteo={shown}
          accion="aplicar"
          onClose={() => setOpen(null)}
          onDone={(c) => {
            done(
              `Conteo N° ${c.id_conteo} aplicado: los saldos contados quedan como se contaron al ${when(c.fec_corte)}.`,
              c,
            );
            onApplied();
          }}
          onRefused={(err) => {
            setOpen(null);
            setError(err);
            setAgain((n) => n + 1);
          }}
        />
      )}
      {open === 'descartar' && shown && (
        <ConfirmConteo
          conteo={shown}
          accion="descartar"
          onClose={() => setOpen(null)}
          onDone={(c) => done(`Conteo N° ${c.id_conteo} descartado: no se registró nada.`, c)}
          onRefused={(err) => {
            setOpen(null);
            setError(err);
            setAgain((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}

/** A count sheet: per line what was counted, what the book holds at the cut-off, the difference. */
function ConteoSheet({
  conteo,
  onEdit,
  onApply,
  onDiscard,
}: {
  conteo: Conteo;
  onEdit: () => void;
  onApply: () => void;
  onDiscard: () => void;
}) {
  const title = `Conteo N° ${conteo.id_conteo}`;
  const borrador = conteo.estado === 'borrador';
  return (
    <section class="panel conteo-sheet" aria-label={title}>
      <header class="sheet-head">
        <div>
          <h3>
            {title} <span class={`pill ${conteo.estado}`}>{estadoConteoLabel(conteo.estado)}</span>
          </h3>
          <p class="meta">
            Corte {when(conteo.fec_corte)}
            {conteo.creado_por && ` · creado por ${conteo.creado_por}`}
            {conteo.fec_aplicacion &&
              ` · aplicado ${when(conteo.fec_aplicacion)}${conteo.aplicado_por ? ` por ${conteo.aplicado_por}` : ''}`}
          </p>
          {conteo.observacion && <p class="observacion">{conteo.observacion}</p>}
        </div>
        {conteo.acciones.length > 0 && (
          <div class="actions sheet-actions">
            {conteo.acciones.includes('editar') && (
              <button type="button" class="secondary" onClick={onEdit}>
                Editar
              </button>
            )}
            {conteo.acciones.includes('descartar') && (
              <button type="button" class="secondary" onClick={onDiscard}>
                Descartar
              </button>
            )}
            {conteo.acciones.includes('aplicar') && (
              <button type="button" onClick={onApply}>
                Aplicar conteo
              </button>
            )}
          </div>
        )}
      </header>
      {borrador && (
        <p class="hint">
          Borrador: «Sistema» es lo que el libro tiene al corte, al momento; nada se registra hasta
          aplicarlo.
        </p>
      )}
      <table class="table conteo-lineas" aria-label="Líneas del conteo">
        <colgroup>
          <col />
          <col class="c-cantidad" />
          <col class="c-cantidad" />
          <col class="c-cantidad" />
          <col class="c-costo" />
          <col class="c-valor" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Material</th>
            <th scope="col" class="num">
              Contado
            </th>
            <th scope="col" class="num">
              Sistema
            </th>
            <th scope="col" class="num">
              Diferencia
            </th>
            <th scope="col" class="num">
              Costo prom.
            </th>
            <th scope="col" class="num">
              Valor dif.
            </th>
          </tr>
        </thead>
        <tbody>
          {conteo.lineas.map((l) => (
            <tr key={l.id_mat_prima} aria-label={l.nombre}>
              <th scope="row">{l.nombre}</th>
              <td class="num">{cantidadLabel(l.contado, l.unidad)}</td>
              <td class="num">{cantidadLabel(l.sistema, l.unidad)}</td>
              <td class={diffClass(l.diferencia)}>{cantidadSigned(l.diferencia, l.unidad)}</td>
              <td class="num">{costoUnitario(l.costo_promedio)}</td>
              <td class={diffClass(l.valor_diferencia)}>{soles(l.valor_diferencia)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5}>
              {borrador ? 'Diferencias al aplicar' : 'Diferencias'} (
              {plural(conteo.total_lineas, 'material', 'materiales')})
            </th>
            <td class={diffClass(conteo.valor_diferencias)} data-testid="valor-diferencias">
              {soles(conteo.valor_diferencias)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function diffClass(value: number): string {
  return value === 0 ? 'num' : value < 0 ? 'num falta' : 'num sobra';
}

/**
 * A new count sheet or a draft's change: the cut-off (blank: now), a note, and what was counted
 * of each material; a blank one is not counted (off the sheet when editing).
 */
function ConteoForm({
  saldos,
  conteo,
  onClose,
  onSaved,
  onRefused,
}: {
  saldos: Saldo[];
  conteo?: Conteo;
  onClose: () => void;
  onSaved: (conteo: Conteo) => void;
  onRefused?: (err: unknown) => void;
}) {
  const { api, tenant } = useSession();
  const ids = useId();
  const keyFor = useKeyFor();
  const [corte, setCorte] = useState('');
  const [observacion, setObservacion] = useState(conteo?.observacion ?? '');
  const [contados, setContados] = useState<Contados>(conteo ? contadosOf(conteo) : {});
  const [buscar, setBuscar] = useState('');
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const onSheet = new Set(conteo?.lineas.map((l) => l.id_mat_prima) ?? []);
  const wanted = normalize(buscar);
  const rows = saldos.filter(
    (s) =>
      (s.activo || onSheet.has(s.id_mat_prima)) &&
      (wanted === '' || normalize(s.nombre).includes(wanted)),
  );
  const counted = Object.values(contados).filter((t) => t.trim() !== '').length;
  const title = conteo ? `Editar el conteo N° ${conteo.id_conteo}` : 'Nuevo conteo';

  const submit = (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (conteo) {
      const { body, errors: problems } = conteoPatch(conteo, contados, observacion);
      setErrors(problems);
      if (Object.keys(problems).length > 0) return;
      if (!body) {
        onClose();
        return;
      }
      setBusy(true);
      ok(
        api.PATCH('/api/v1/inventario/conteos/{id}', {
          params: {
            path: { id: conteo.id_conteo },
            header: { 'Idempotency-Key': keyFor([conteo.id_conteo, body]) },
          },
          body,
        }),
      )
        .then(onSaved)
        .catch((err: unknown) => {
          if (onRefused && isNotDraft(err)) onRefused(err);
          else setError(err);
        })
        .finally(() => setBusy(false));
      return;
    }
    const { lineas, errors: problems } = conteoLineas(contados);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const note = observacion.trim();
    const body = {
      lineas,
      ...(corte ? { fec_corte: corte } : {}),
      ...(note ? { observacion: note } : {}),
    };
    setBusy(true);
    ok(
      api.POST('/api/v1/inventario/conteos', {
        params: { header: { 'Idempotency-Key': keyFor(body) } },
        body,
      }),
    )
      .then(onSaved)
      .catch(setError)
      .finally(() => setBusy(false));
  };

  return (
    <Dialog title={title} onClose={onClose} variant="wide conteo-dialog">
      <form class="conteo-form" aria-label={title} onSubmit={submit} noValidate>
        <div class="conteo-form-head">
          {!conteo && (
            <div class="field">
              <label for={`${ids}-corte`}>Corte (vacío: ahora)</label>
              <input
                id={`${ids}-corte`}
                type="datetime-local"
                value={corte}
                onInput={(e) => setCorte(e.currentTarget.value)}
              />
            </div>
          )}
          <div class="field grow">
            <label for={`${ids}-obs`}>Observación</label>
            <input
              id={`${ids}-obs`}
              value={observacion}
              maxLength={500}
              autoComplete="off"
              placeholder="cierre de mes, almacén de cocina…"
              onInput={(e) => setObservacion(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for={`${ids}-buscar`}>Buscar material</label>
            <input
              id={`${ids}-buscar`}
              type="search"
              value={buscar}
              onInput={(e) => setBuscar(e.currentTarget.value)}
            />
          </div>
        </div>
        <p class="hint">
          Anote lo que hay en el almacén de cada material que contó; deje en blanco lo que no contó.
          Al guardar verá, por material, la diferencia con el libro antes de aplicarla.
        </p>
        <div class="conteo-form-lines">
          <table class="table conteo-inputs" aria-label="Lo contado por material">
            <thead>
              <tr>
                <th scope="col">Material</th>
                <th scope="col">Contado</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id_mat_prima}>
                  <th scope="row">
                    <label for={`${ids}-m${s.id_mat_prima}`}>{s.nombre}</label>
                  </th>
                  <td>
                    <span class="with-unit">
                      <input
                        id={`${ids}-m${s.id_mat_prima}`}
                        class="amount"
                        inputMode="decimal"
                        autoComplete="off"
                        aria-label={`Contado de ${s.nombre}`}
                        aria-invalid={errors[s.id_mat_prima] ? 'true' : undefined}
                        value={contados[s.id_mat_prima] ?? ''}
                        onInput={(e) => {
                          const value = e.currentTarget.value;
                          setContados((c) => ({ ...c, [s.id_mat_prima]: value }));
                          if (errors[s.id_mat_prima] || errors[0]) setErrors({});
                        }}
                      />
                      <span class="unit">{unidadLabel(s.unidad)}</span>
                    </span>
                    {errors[s.id_mat_prima] && (
                      <span class="field-error">{errors[s.id_mat_prima]}</span>
                    )}
                  </td>
                </tr>
              ))}
              {rows.length === 0 && (
                <tr>
                  <td colSpan={2} class="muted">
                    Ningún material con ese nombre.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {errors[0] && <p class="field-error">{errors[0]}</p>}
        <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Guardando…' : conteo ? 'Guardar cambios' : 'Crear borrador'}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={onClose}>
            Cancelar
          </button>
          <span class="muted">{plural(counted, 'material contado', 'materiales contados')}</span>
        </div>
      </form>
    </Dialog>
  );
}

/** A change refused because someone applied or discarded the sheet meanwhile. */
function isNotDraft(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'CONTEO_NO_BORRADOR';
}

/** Applying or discarding a draft, after saying what it does. */
function ConfirmConteo({
  conteo,
  accion,
  onClose,
  onDone,
  onRefused,
}: {
  conteo: Conteo;
  accion: 'aplicar' | 'descartar';
  onClose: () => void;
  onDone: (conteo: Conteo) => void;
  onRefused: (err: unknown) => void;
}) {
  const { api, tenant } = useSession();
  const [key] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const aplicar = accion === 'aplicar';
  const title = aplicar
    ? `Aplicar el conteo N° ${conteo.id_conteo}`
    : `Descartar el conteo N° ${conteo.id_conteo}`;
  const ajustes = conteo.lineas.filter((l) => l.diferencia !== 0).length;

  const run = () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const params = { path: { id: conteo.id_conteo }, header: { 'Idempotency-Key': key } };
    ok(
      aplicar
        ? api.POST('/api/v1/inventario/conteos/{id}/aplicar', { params })
        : api.POST('/api/v1/inventario/conteos/{id}/descartar', { params }),
    )
      .then(onDone)
      .catch((err: unknown) => {
        if (isNotDraft(err)) onRefused(err);
        else setError(err);
      })
      .finally(() => setBusy(false));
  };

  return (
    <Dialog title={title} onClose={onClose}>
      {aplicar ? (
        <p>
          Se registra{ajustes === 1 ? '' : 'n'} {plural(ajustes, 'ajuste', 'ajustes')} al corte del{' '}
          {when(conteo.fec_corte)}, por <strong>{soles(conteo.valor_diferencias)}</strong>, y el
          inventario queda cerrado hasta ese momento: después no se podrá registrar nada con fecha
          anterior. No se puede deshacer.
        </p>
      ) : (
        <p>El borrador se descarta sin registrar nada. No se puede deshacer.</p>
      )}
      <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
      <div class="actions">
        <button type="button" class={aplicar ? undefined : 'danger'} disabled={busy} onClick={run}>
          {busy
            ? aplicar
              ? 'Aplicando…'
              : 'Descartando…'
            : aplicar
              ? 'Aplicar conteo'
              : 'Descartar borrador'}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onClose}>
          Volver
        </button>
      </div>
    </Dialog>
  );
}

/**
 * Theoretical against actual usage per material over a period (since the last count by
 * default), and the period's sales and food cost: every figure the API's.
 */
function ConsumoReport({ round }: { round: number }) {
  const { api, tenant } = useSession();
  const today = todayIn(tenant.timeZone);
  const [preset, setPreset] = useState<Preset>('ultimo_conteo');
  const [otro, setOtro] = useState({ desde: '', hasta: '' });
  const [report, setReport] = useState<{ key: string; data: Consumo } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const query = periodoQuery(preset, today, otro);
  const queryKey = JSON.stringify(query);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    ok(
      api.GET('/api/v1/inventario/consumo', {
        params: { query },
        signal: controller.signal,
      }),
    )
      .then((data) => setReport({ key: queryKey, data }))
      .catch((err) => !isAbort(err) && setError(err));
    return () => controller.abort();
  }, [api, queryKey, round]);

  const shown = report?.key === queryKey ? report.data : null;

  return (
    <section class="panel consumo" aria-labelledby="consumo-titulo">
      <div class="inv-section-head">
        <h3 id="consumo-titulo">Consumo y food cost</h3>
      </div>
      <div class="toolbar">
        <div class="segmented small" role="group" aria-label="Periodo">
          {PRESETS.map((p) => (
            <button
              key={p.preset}
              type="button"
              class={p.preset === preset ? 'seg active' : 'seg'}
              aria-pressed={p.preset === preset}
              onClick={() => setPreset(p.preset)}
            >
              {p.label}
            </button>
          ))}
        </div>
        {preset === 'otro' && (
          <>
            <label>
              Desde
              <input
                type="date"
                value={otro.desde}
                onChange={(e) => setOtro({ ...otro, desde: e.currentTarget.value })}
              />
            </label>
            <label>
              Hasta
              <input
                type="date"
                value={otro.hasta}
                onChange={(e) => setOtro({ ...otro, hasta: e.currentTarget.value })}
              />
            </label>
          </>
        )}
      </div>
      <ErrorBanner error={mensajeError(error, tenant.timeZone)} onClose={() => setError(null)} />
      {!shown && !error && <p class="muted">Cargando…</p>}
      {shown && (
        <>
          <p class="meta" role="status">
            {periodoLabel(shown.desde, shown.hasta)} ·{' '}
            {plural(shown.comandas, 'comanda cerrada', 'comandas cerradas')}
          </p>
          <dl class="kpis" aria-label="Cifras del periodo">
            <div>
              <dt>Ventas netas</dt>
              <dd>{soles(shown.ventas_netas)}</dd>
              <span class="hint">sin IGV ni recargo</span>
            </div>
            <div>
              <dt>Costo teórico</dt>
              <dd>{soles(shown.costo_teorico)}</dd>
              <span class="hint">según las recetas</span>
            </div>
            <div>
              <dt>Costo real</dt>
              <dd>{soles(shown.costo_real)}</dd>
              <span class="hint">lo que salió del almacén</span>
            </div>
            <div>
              <dt>Food cost teórico</dt>
              <dd>{porcentaje(shown.food_cost_teorico_pct)}</dd>
              <span class="hint">de las ventas netas</span>
            </div>
            <div class="destacado">
              <dt>Food cost real</dt>
              <dd>{porcentaje(shown.food_cost_real_pct)}</dd>
              <span class="hint">de las ventas netas</span>
            </div>
          </dl>
          <table class="table consumo-tabla" aria-label="Consumo por material">
            <colgroup>
              <col />
              <col class="c-valor" />
              <col class="c-valor" />
              <col class="c-valor" />
              <col class="c-valor" />
              <col class="c-valor" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Material</th>
                <th scope="col" class="num" title="Lo que dicen las recetas de lo vendido">
                  Teórico
                </th>
                <th scope="col" class="num" title="Stock inicial + compras − stock final">
                  Real
                </th>
                <th scope="col" class="num">
                  Merma
                </th>
                <th scope="col" class="num" title="Ajustes de conteo">
                  Ajuste
                </th>
                <th scope="col" class="num" title="Real − teórico">
                  Varianza
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.materiales.map((m) => (
                <tr key={m.id_mat_prima} aria-label={m.nombre}>
                  <th scope="row">{m.nombre}</th>
                  <Pair valor={m.teorico_valor} cantidad={m.teorico_cantidad} unidad={m.unidad} />
                  <Pair valor={m.real_valor} cantidad={m.real_cantidad} unidad={m.unidad} />
                  <Pair valor={m.merma_valor} cantidad={m.merma_cantidad} unidad={m.unidad} />
                  <Pair valor={m.ajuste_valor} cantidad={m.ajuste_cantidad} unidad={m.unidad} />
                  <Pair
                    valor={m.varianza_valor}
                    cantidad={m.varianza_cantidad}
                    unidad={m.unidad}
                    varianza
                  />
                </tr>
              ))}
              {shown.materiales.length === 0 && (
                <tr>
                  <td colSpan={6} class="muted">
                    Ningún material se movió en este periodo.
                  </td>
                </tr>
              )}
            </tbody>
            {shown.materiales.length > 0 && (
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td class="num">{soles(shown.costo_teorico)}</td>
                  <td class="num">{soles(shown.costo_real)}</td>
                  <td colSpan={3} />
                </tr>
              </tfoot>
            )}
          </table>
          <p class="hint">
            Cada celda: el valor en soles y, debajo, la cantidad. Entre dos conteos el consumo real
            es exacto; en otro periodo es el del libro, corregido por los conteos aplicados en él.
          </p>
        </>
      )}
    </section>
  );
}

/** A value in soles over its quantity, in one cell of the report. */
function Pair({
  valor,
  cantidad,
  unidad,
  varianza = false,
}: {
  valor: number;
  cantidad: number;
  unidad: Saldo['unidad'];
  varianza?: boolean;
}) {
  const cls = varianza && valor > 0 ? 'num pair sobre' : 'num pair';
  return (
    <td class={cls}>
      <span class="pair-valor">{soles(valor)}</span>
      <span class="pair-cantidad">{cantidadLabel(cantidad, unidad)}</span>
    </td>
  );
}
