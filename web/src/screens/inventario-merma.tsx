import { useEffect, useId, useState } from 'preact/hooks';
import { isAbort, ok } from '../api';
import { ErrorBanner, Notice } from '../components';
import { when } from '../format';
import { useSession } from '../session';
import {
  cantidadLabel,
  cantidadSigned,
  costoUnitario,
  mensajeError,
  parseCantidad,
  unidadLabel,
  type Material,
  type Movimiento,
  type Saldo,
} from './inventario-rules';
import { useKeyFor } from './inventario-keys';

/**
 * Waste: the material by its name, how much (in its unidad), why. POST /inventario/mermas with
 * one Idempotency-Key per intended change.
 */
export function MermaForm({
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
export function MermaSolo() {
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
